import { Injectable, Optional } from '@nestjs/common';
import passport from 'passport';
import { Strategy } from 'passport-http-bearer';
import { ApiKeyAuthenticator } from '../api-keys/api-key-authenticator.js';
import type { KeySurface } from '../api-keys/api-key.events.js';
import { BearerTokenResolvers } from './bearer-token-resolvers.js';
import type { Principal } from './principal.js';

const STRATEGY = 'svc-bearer';

/**
 * passport-http-bearer over the resolver chain, for both surfaces (`surface` on the request),
 * used only through the two libraries' documented API: the strategy's options and verify
 * callback, and passport's `authenticate` with a custom callback (ADR 0091). Registered in a
 * Passport instance of its own (not passport's process-wide registry), so two apps in one process
 * (tests, several API instances) never answer each other's requests; PlatformAuthGuard and the
 * agent surface run it per request (`authenticateRequest`).
 */
@Injectable()
export class BearerStrategy {
  private readonly passport = new passport.Passport();

  constructor(
    private readonly resolvers: BearerTokenResolvers,
    @Optional() private readonly keys?: ApiKeyAuthenticator,
  ) {
    // passReqToCallback: the verify step reads which surface the request is for.
    this.passport.use(
      STRATEGY,
      new Strategy({ realm: 'svc', passReqToCallback: true }, (req: BearerRequest, token: string, done: VerifyDone) =>
        this.verify(req, token, done),
      ),
    );
  }

  /**
   * Passport's verify step: a Principal, or a thrown 401 AppError. The platform surface asks
   * every resolver (API keys, and OAuth tokens when registered); the agent surface takes agent
   * API keys only (a platform key there gets KEY_WRONG_SURFACE, D1).
   */
  validate(token: string, surface: KeySurface = 'platform'): Principal | Promise<Principal> {
    if (surface === 'agent' && this.keys) return this.keys.authenticate(token, 'agent');
    return this.resolvers.resolve(token);
  }

  /**
   * Runs the strategy for one request: resolves the principal or passport's failure. The outcome
   * comes back synchronously when the strategy finished synchronously (a cached key: passport and
   * the strategy call back in the same tick), else as a promise, so a cached key costs no promise.
   */
  authenticateRequest(request: BearerRequest): PassportOutcome | Promise<PassportOutcome> {
    let settled: Settled | undefined;
    let settle: ((s: Settled) => void) | undefined;
    const finish = (s: Settled) => {
      if (settled) return;
      settled = s;
      settle?.(s);
    };
    const middleware = this.passport.authenticate(
      STRATEGY,
      { session: false },
      (error: unknown, user: Principal | false, challenge?: unknown, status?: number) =>
        finish(
          error
            ? { error }
            : { outcome: { principal: user || undefined, challenge: user ? undefined : challenge, status } },
        ),
    ) as (req: unknown, res: unknown, next: (error?: unknown) => void) => void;
    try {
      // No response object: with a custom callback passport writes none (bearer never redirects),
      // and `next` is reached only when a strategy passes without a decision.
      middleware(request, undefined, (error?: unknown) => finish(error ? { error } : { outcome: NO_OUTCOME }));
    } catch (error) {
      finish({ error });
    }
    if (settled) {
      if ('error' in settled) throw settled.error;
      return settled.outcome;
    }
    return new Promise((resolve, reject) => {
      settle = (s) => ('error' in s ? reject(s.error) : resolve(s.outcome));
    });
  }

  /** `done` is called in the same tick when `validate` answers synchronously (a cached key). */
  private verify(req: BearerRequest, token: string, done: VerifyDone): void {
    let result: Principal | Promise<Principal>;
    try {
      result = this.validate(token, req.surface ?? 'platform');
    } catch (error) {
      done(error, false);
      return;
    }
    if (result instanceof Promise)
      result.then(
        (principal) => done(null, principal),
        (error: unknown) => done(error, false),
      );
    else done(null, result);
  }
}

/**
 * What the strategy reads of a request: the Authorization header only (the agent surface turns
 * its `x-api-key` into `Bearer <key>` first), and the surface it was sent to.
 */
export interface BearerRequest {
  headers: { authorization?: string };
  surface?: KeySurface;
}

type Settled = { outcome: PassportOutcome } | { error: unknown };

type VerifyDone = (error: unknown, user: Principal | false) => void;

const NO_OUTCOME: PassportOutcome = Object.freeze({ principal: undefined, challenge: undefined, status: undefined });

export interface PassportOutcome {
  principal: Principal | undefined;
  /** passport-http-bearer's challenge when it found no usable token. */
  challenge: unknown;
  /** 400 when the Authorization header was malformed. */
  status: number | undefined;
}
