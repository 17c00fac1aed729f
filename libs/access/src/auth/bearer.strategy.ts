import { Injectable, Optional } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import { Strategy } from 'passport-http-bearer';
import { ApiKeyAuthenticator } from '../api-keys/api-key-authenticator.js';
import type { KeySurface } from '../api-keys/api-key.events.js';
import { BearerTokenResolvers } from './bearer-token-resolvers.js';
import type { Principal } from './principal.js';

/**
 * passport-http-bearer over the resolver chain, for both surfaces (`surface` on the request). Registered in a Passport instance of its own
 * (not passport's process-wide registry), so two apps in one process (tests, several API
 * instances) never answer each other's requests; PlatformAuthGuard runs it per request
 * (`authenticateRequest`).
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'svc-bearer') {
  private passportInstance?: passport.PassportStatic;
  private runPrototype?: object;

  constructor(
    private readonly resolvers: BearerTokenResolvers,
    @Optional() private readonly keys?: ApiKeyAuthenticator,
  ) {
    // passReqToCallback: the verify step reads which surface the request is for.
    super({ realm: 'svc', passReqToCallback: true });
    // The mixin's verify callback is an async function: a promise and two awaits per request
    // even when the key is cached. This one calls `done` in the same tick when `validate`
    // answers synchronously; a thrown or rejected AppError goes to passport's `error` as before.
    (this as unknown as { _verify: (req: BearerRequest, token: string, done: VerifyDone) => void })._verify = (
      req,
      token,
      done,
    ) => {
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
    };
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
  validate(token: string, surface: KeySurface = 'platform'): Principal | Promise<Principal> {
    if (surface === 'agent' && this.keys) return this.keys.authenticate(token, 'agent');
    return this.resolvers.resolve(token);
  }

  /**
   * Runs the strategy for one request: resolves the principal or passport's failure. Done the way
   * passport's `authenticate` middleware runs a strategy (a fresh object inheriting from it, on
   * which the success / fail / error actions act for this request, the outcomes mapped the same
   * way), but without the middleware around it: that layer (request decoration, its closures)
   * cost three times what the strategy itself does, on every request. The actions are methods of
   * a prototype made once, not closures per request. The outcome comes back synchronously when
   * the strategy finished synchronously (a cached key), else as a promise.
   */
  authenticateRequest(request: BearerRequest): PassportOutcome | Promise<PassportOutcome> {
    this.runPrototype ??= runPrototypeOf(this);
    const run = Object.create(this.runPrototype) as StrategyRun;
    try {
      run.authenticate(request, { session: false });
    } catch (error) {
      finish(run, { error });
    }
    const settled = run.settled;
    if (settled) {
      if ('error' in settled) throw settled.error;
      return settled.outcome;
    }
    return new Promise((resolve, reject) => {
      run.settle = (s) => ('error' in s ? reject(s.error) : resolve(s.outcome));
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

/** One request's run of the strategy: passport's actions record its outcome here. */
interface StrategyRun extends StrategyActions {
  settled?: Settled;
  settle?: (s: Settled) => void;
}

const NO_OUTCOME: PassportOutcome = Object.freeze({ principal: undefined, challenge: undefined, status: undefined });

function finish(run: StrategyRun, s: Settled): void {
  if (run.settled) return;
  run.settled = s;
  run.settle?.(s);
}

/**
 * The prototype of every run: the strategy itself, with passport's actions (success, fail,
 * error, pass, redirect) as methods that record the outcome on the run. Made once per strategy,
 * so a request costs one object, not a closure per action.
 */
function runPrototypeOf(strategy: object): object {
  const proto = Object.create(strategy) as StrategyActions;
  proto.success = function (this: StrategyRun, user: Principal | false) {
    finish(this, { outcome: user ? { principal: user, challenge: undefined, status: undefined } : NO_OUTCOME });
  };
  proto.fail = function (this: StrategyRun, challenge?: unknown, status?: number) {
    finish(this, {
      outcome:
        typeof challenge === 'number'
          ? { principal: undefined, challenge: undefined, status: challenge }
          : { principal: undefined, challenge, status },
    });
  };
  proto.error = function (this: StrategyRun, error: unknown) {
    finish(this, { error });
  };
  proto.pass = function (this: StrategyRun) {
    finish(this, { outcome: NO_OUTCOME });
  };
  proto.redirect = function (this: StrategyRun) {
    finish(this, { outcome: NO_OUTCOME });
  };
  return proto;
}

type VerifyDone = (error: unknown, user: Principal | false) => void;

/** The actions passport binds to a strategy for one request (passport's StrategyCreatedStatic). */
interface StrategyActions {
  success(user: Principal | false, info?: unknown): void;
  fail(challenge?: unknown, status?: number): void;
  error(err: unknown): void;
  pass(): void;
  redirect(url: string, status?: number): void;
  authenticate(request: unknown, options: { session: false }): void;
}

export interface PassportOutcome {
  principal: Principal | undefined;
  /** passport-http-bearer's challenge when it found no usable token. */
  challenge: unknown;
  /** 400 when the Authorization header was malformed. */
  status: number | undefined;
}
