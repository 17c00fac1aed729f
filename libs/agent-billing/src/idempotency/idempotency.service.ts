import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, Errors, type LoadedSecretBox, SECRET_BOX } from '#kernel';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { fingerprintOf, IDEMPOTENCY_TTL_HOURS, IdempotencyStore } from './idempotency.store.js';

/** Idempotency keys of operations without a caller (pay, signup) must be this long at least. */
export const MIN_ANONYMOUS_KEY_LENGTH = 16;

/**
 * What the first documents an agent reads (llms.txt, the quickstart) say about retrying pay or
 * signup, from the values the service applies: without the header a retry opens a second account.
 */
export const PAY_IDEMPOTENCY_NOTE =
  `Send an Idempotency-Key header (at least ${MIN_ANONYMOUS_KEY_LENGTH} random characters, e.g. a UUID) ` +
  `on POST /agents/pay and /agents/signup: a retry with the same key within ${IDEMPOTENCY_TTL_HOURS} h ` +
  `returns the first answer (the same account and key) instead of opening another account.`;

interface HeaderBag {
  headers: Record<string, string | string[] | undefined>;
}
interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * `Idempotency-Key` for HTTP handlers (D15): with the header, the first answer is replayed for
 * 24 h (replays carry `Idempotent-Replayed: true`); without it the handler just runs. The
 * scope names the operation (and the caller for authenticated ones); the fingerprint covers the
 * parameters, so the same key with other parameters gets 409 IDEMPOTENCY_KEY_REUSED.
 */
@Injectable()
export class Idempotency {
  readonly store: IdempotencyStore;

  constructor(
    @Inject(DOCUMENT_STORE) documents: DocumentStore,
    @Inject(CLOCK) clock: Clock,
    @Inject(SECRET_BOX) secrets: LoadedSecretBox,
  ) {
    // The secrets key (the one sealing webhook secrets) is the server secret of replays. After a
    // rotation, replays stored under the old key no longer open: their keys are answered as new.
    this.store = new IdempotencyStore(documents, clock, {
      serverSecret: secrets.box.derive('svc-idempotency-v2'),
    });
  }

  /**
   * `anonymous`: the operation has no caller to scope the key by (pay, signup), so whoever
   * presents the same key and parameters within 24 h gets the first response (with its API
   * key): such keys must be at least 16 characters, e.g. a UUID.
   */
  async run<T>(
    request: HeaderBag,
    reply: Reply,
    scope: string,
    parameters: unknown,
    execute: () => Promise<T>,
    options: { anonymous?: boolean } = {},
  ): Promise<T> {
    const raw = request.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined) return execute();
    if (options.anonymous && key.length < MIN_ANONYMOUS_KEY_LENGTH) {
      throw Errors.badRequest(
        'INVALID_IDEMPOTENCY_KEY',
        `On this operation the Idempotency-Key acts as a secret for 24 h: use at least ${MIN_ANONYMOUS_KEY_LENGTH} random characters (e.g. a UUID).`,
      );
    }
    const outcome = await this.store.run({ scope, key, fingerprint: fingerprintOf(parameters) }, async () => ({
      status: 200,
      body: await execute(),
    }));
    if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
    return outcome.body as T;
  }
}
