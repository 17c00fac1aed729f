import { Injectable, Optional } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import { Strategy } from 'passport-http-bearer';
import { ApiKeyAuthenticator } from '../api-keys/api-key-authenticator.js';
import type { KeySurface } from '../api-keys/api-key.events.js';
import { BearerTokenResolvers } from './bearer-token-resolvers.js';
import type { Principal } from './principal.js';

const STRATEGY = 'svc-bearer';

/**
 * passport-http-bearer over the resolver chain, for both surfaces (`surface` on the request),
 * through the stack's `@nestjs/passport` mixin and only its documented hooks (ADR 0091): the
 * strategy's options, `validate` as the verify step, `getPassportInstance` to register in a
 * Passport instance of its own (not passport's process-wide registry, so two apps in one process
 * — tests, several API instances — never answer each other's requests), and passport's
 * `authenticate` with a custom callback. PlatformAuthGuard and the agent surface run it per
 * request (`authenticateRequest`).
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, STRATEGY) {
  private passportInstance?: passport.PassportStatic;

  constructor(
    private readonly resolvers: BearerTokenResolvers,
    @Optional() private readonly keys?: ApiKeyAuthenticator,
  ) {
    // passReqToCallback: the verify step reads which surface the request is for.
    super({ realm: 'svc', passReqToCallback: true });
  }

  getPassportInstance(): passport.PassportStatic {
    // Called from the mixin's constructor, before this class's fields are set.
    this.passportInstance ??= new passport.Passport() as passport.PassportStatic;
    return this.passportInstance;
  }

  /**
   * Passport's verify step: a Principal, or a thrown 401 AppError. The platform surface asks
   * every resolver (API keys, and OAuth tokens when registered); the agent surface takes agent
   * API keys only (a platform key there gets KEY_WRONG_SURFACE, D1).
   */
  validate(req: BearerRequest, token: string): Principal | Promise<Principal> {
    if (req.surface === 'agent' && this.keys) return this.keys.authenticate(token, 'agent');
    return this.resolvers.resolve(token);
  }

  /**
   * Runs the strategy for one request: resolves the principal or passport's failure (a challenge
   * without a usable token, status 400 for a malformed header). A missing or malformed header is
   * answered in the same tick; a token goes through the mixin's asynchronous verify callback.
   */
  authenticateRequest(request: BearerRequest): PassportOutcome | Promise<PassportOutcome> {
    // A key this process authenticated within the key cache's lifetime is answered here, in the
    // same tick, with what the verify step would answer for it (a principal, or its 401 for a
    // revoked key or the other surface's); every other token goes through passport. Measured
    // (bench-ab, docs/performance.md): the per-request middleware and the mixin's async verify
    // cost the platform routes about 5 µs of CPU per request.
    const principal = this.keys?.cachedPrincipal(
      bearerToken(request.headers.authorization),
      request.surface ?? 'platform',
    );
    if (principal) return { principal, challenge: undefined, status: undefined };
    let settled: Settled | undefined;
    let settle: ((s: Settled) => void) | undefined;
    const finish = (s: Settled) => {
      if (settled) return;
      settled = s;
      settle?.(s);
    };
    const middleware = this.getPassportInstance().authenticate(
      STRATEGY,
      { session: false },
      (error: unknown, user: Principal | false | null, challenge?: unknown, status?: number) =>
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

const NO_OUTCOME: PassportOutcome = Object.freeze({ principal: undefined, challenge: undefined, status: undefined });

export interface PassportOutcome {
  principal: Principal | undefined;
  /** passport-http-bearer's challenge when it found no usable token. */
  challenge: unknown;
  /** 400 when the Authorization header was malformed. */
  status: number | undefined;
}

/** The token as passport-http-bearer reads the header: exactly two words, the first `Bearer` in any case. */
function bearerToken(authorization: string | undefined): string | undefined {
  const parts = authorization?.split(' ');
  return parts?.length === 2 && /^Bearer$/i.test(parts[0]!) ? parts[1] : undefined;
}
