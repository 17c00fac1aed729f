import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Result,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { prefersJson } from '#http';

/** MCP answers JSON unless the client lists an event stream first; an Accept naming neither gets JSON. */
export const JSON_OVER_STREAM = { over: 'text/event-stream', otherwise: true };

/**
 * The common exchange of a stateless endpoint without the SDK's HTTP transport: one JSON-RPC
 * request in, its one answer out, as JSON. The SDK's StreamableHTTPServerTransport converts each
 * Node request to a Web Request and back (Hono) and parses the message again: measured 525 µs of
 * a paid call's 1,095 µs (docs/performance.md, "MCP endpoint"). Everything else (an event stream,
 * batches, notifications, malformed messages) still goes through the SDK's transport.
 */
export class SingleExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private resolve!: (message: JSONRPCMessage) => void;
  /** The answer to the request (a result or an error response). */
  readonly answer = new Promise<JSONRPCMessage>((resolve) => (this.resolve = resolve));

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // In a JSON answer only the response has a place (the SDK's JSON mode drops the rest too).
    // The server built the message: its shape is known, and the SDK's type guards parse the
    // whole result with zod again (10 µs a call for a discovery page).
    if ('result' in message || 'error' in message) this.resolve(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  /**
   * Whether this exchange can take the request: a single JSON-RPC request, a client that accepts
   * both JSON and an event stream (as the transport requires) and prefers JSON, and a supported
   * protocol version header (or an initialize, which negotiates one).
   */
  static fits(body: unknown, headers: Record<string, string | string[] | undefined>): body is JSONRPCRequest {
    if (!isJSONRPCRequest(body)) return false;
    const accept = header(headers.accept);
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
    if (!prefersJson(accept, JSON_OVER_STREAM)) return false;
    const version = headers['mcp-protocol-version'];
    // The initialize parse last: the common call carries a supported version.
    return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(header(version)) || isInitializeRequest(body);
  }
}

/**
 * A lone tools/call that needs nothing of a per-request SDK `Server` but its registered handler:
 * the SDK's own request schema parses it (what fails goes to a `Server`, which answers the
 * error), and it asks for no task (this server has no task capability to refuse it with).
 */
export function loneToolCall(message: JSONRPCRequest): CallToolRequest | undefined {
  if (message.method !== 'tools/call') return undefined;
  const parsed = CallToolRequestSchema.safeParse(message);
  return parsed.success && parsed.data.params.task === undefined ? parsed.data : undefined;
}

/**
 * The response to request `id` from its handler, built as the SDK's Protocol builds it: the
 * result, or an error carrying the thrown error's code (-32603 without one), message and data.
 */
export async function respond(id: JSONRPCRequest['id'], handle: () => Promise<Result>): Promise<JSONRPCMessage> {
  try {
    return { result: await handle(), jsonrpc: '2.0', id };
  } catch (thrown) {
    const error = thrown as { code?: unknown; message?: string; data?: unknown };
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: Number.isSafeInteger(error.code) ? (error.code as number) : ErrorCode.InternalError,
        message: error.message ?? 'Internal error',
        ...(error.data !== undefined && { data: error.data }),
      },
    };
  }
}

const header = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? value.join(',') : (value ?? '');
