import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import { Strategy } from 'passport-http-bearer';
import { BearerTokenResolvers } from './bearer-token-resolvers.js';
import type { Principal } from './principal.js';

/**
 * passport-http-bearer over the resolver chain. Registered in a Passport instance of its own
 * (not passport's process-wide registry), so two apps in one process (tests, several API
 * instances) never answer each other's requests; PlatformAuthGuard runs it per request.
 */
@Injectable()
export class PlatformBearerStrategy extends PassportStrategy(Strategy, 'platform-bearer') {
  private passportInstance?: passport.PassportStatic;

  constructor(private readonly resolvers: BearerTokenResolvers) {
    super({ realm: 'svc' });
  }

  getPassportInstance(): passport.PassportStatic {
    // Called from the mixin's constructor, before this class's fields are set.
    this.passportInstance ??= new passport.Passport() as passport.PassportStatic;
    return this.passportInstance;
  }

  /** Passport's verify step: a Principal, or a thrown 401 AppError. */
  validate(token: string): Promise<Principal> {
    return this.resolvers.resolve(token);
  }

  /** Runs the strategy for one request: resolves the principal or rejects with passport's failure. */
  authenticateRequest(request: { headers: { authorization?: string } }): Promise<PassportOutcome> {
    const instance = this.getPassportInstance();
    return new Promise((resolve, reject) => {
      // A fresh object per request: passport attaches the request's success/fail callbacks to it.
      const strategy = Object.create(this) as passport.Strategy;
      const middleware = instance.authenticate(strategy, { session: false }, (err: unknown, user: Principal | false, info: unknown, status: unknown) => {
        if (err) reject(err);
        else resolve({ principal: user || undefined, challenge: info, status: typeof status === 'number' ? status : undefined });
      });
      middleware(request, {}, (err?: unknown) => (err ? reject(err) : resolve({ principal: undefined, challenge: undefined, status: undefined })));
    });
  }
}

export interface PassportOutcome {
  principal: Principal | undefined;
  /** passport-http-bearer's challenge when it found no usable token. */
  challenge: unknown;
  /** 400 when the Authorization header was malformed. */
  status: number | undefined;
}
