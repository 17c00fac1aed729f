import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { type MaybePromise, whenReady } from '#kernel';

/**
 * A batch's messages on their way from the SDK's HTTP transport to the server: each one after the
 * first counts against its caller's budget as a request of its own would (the HTTP request was
 * counted as the first). A request over the budget is answered with `refuse`'s message instead
 * of running; the messages before it run as usual. (Counted once per HTTP request, a batch of 100
 * paid calls cost one request of the key's budget.)
 */
export class CountedBatchTransport<Refusal> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private received = 0;
  /** Once a message is refused, the rest of the batch is too: the window does not refill mid-batch. */
  private refusal: Refusal | undefined;

  constructor(
    private readonly inner: Transport,
    /** Counts one message; the refusal when the caller is over the budget. */
    private readonly count: () => MaybePromise<Refusal | undefined>,
    private readonly refuse: (request: JSONRPCRequest, refusal: Refusal) => MaybePromise<JSONRPCMessage>,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (this.received++ === 0) return this.onmessage?.(message, extra);
    try {
      const admitted = whenReady(this.refusal ?? this.count(), (refusal) => this.admit(message, extra, refusal));
      if (admitted instanceof Promise) admitted.catch((error: unknown) => this.fail(message, error));
    } catch (error) {
      this.fail(message, error);
    }
  }

  private admit(message: JSONRPCMessage, extra: MessageExtraInfo | undefined, refusal: Refusal | undefined) {
    if (refusal === undefined) return this.onmessage?.(message, extra);
    this.refusal = refusal;
    // A refused notification has no answer to give.
    if (!isJSONRPCRequest(message)) return undefined;
    return whenReady(this.refuse(message, refusal), (answer) =>
      this.inner.send(answer, { relatedRequestId: message.id }),
    );
  }

  /** Counting failed (the counter store is down): the request still gets an answer, or the batch would hang. */
  private fail(message: JSONRPCMessage, error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    if (!isJSONRPCRequest(message)) return;
    const answer: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32603, message: 'Internal error: the request could not be counted; retry later.' },
    };
    this.inner.send(answer, { relatedRequestId: message.id }).catch(() => undefined);
  }
}
