import { Injectable } from '@nestjs/common';
import type { MaybePromise } from '#kernel';
import { ApiKeyAuthenticator } from '../api-keys/api-key-authenticator.js';
import { unauthorized } from './auth-errors.js';
import type { Principal } from './principal.js';

/**
 * Turns one kind of bearer token into a Principal. `resolve` answers undefined for a token that
 * is not of its kind (the next resolver tries), and throws a 401 AppError for one that is but
 * does not work (revoked, expired, ...).
 */
export interface BearerTokenResolver {
  readonly name: string;
  /** A value when answered at once (a cached key), else a promise. */
  resolve(token: string): Principal | undefined | Promise<Principal | undefined>;
}

/** Platform API keys (`svc_live_…` / `svc_test_…`), accepted on the platform surface only (D1). */
export class ApiKeyBearerResolver implements BearerTokenResolver {
  readonly name = 'api_key';

  constructor(private readonly authenticator: ApiKeyAuthenticator) {}

  resolve(token: string): Principal | undefined | Promise<Principal | undefined> {
    return token.startsWith('svc_') ? this.authenticator.authenticate(token, 'platform') : undefined;
  }
}

/**
 * The chain of bearer token kinds the platform surface accepts, in order. API keys are built
 * in; the OAuth feature adds its access tokens with `register(...)` (in its module's
 * onModuleInit), and nothing else changes.
 */
@Injectable()
export class BearerTokenResolvers {
  private readonly resolvers: BearerTokenResolver[];

  constructor(authenticator: ApiKeyAuthenticator) {
    this.resolvers = [new ApiKeyBearerResolver(authenticator)];
  }

  register(resolver: BearerTokenResolver): void {
    if (this.resolvers.some((r) => r.name === resolver.name))
      throw new Error(`A bearer token resolver named ${resolver.name} is registered already`);
    this.resolvers.push(resolver);
  }

  /** The first resolver's principal: a value when every step answered at once, else a promise. */
  resolve(token: string, from = 0): MaybePromise<Principal> {
    for (let i = from; i < this.resolvers.length; i++) {
      const answer = this.resolvers[i]!.resolve(token);
      if (answer instanceof Promise) return answer.then((principal) => principal ?? this.resolve(token, i + 1));
      if (answer) return answer;
    }
    throw unauthorized('INVALID_KEY', 'The bearer token is not a valid API key or access token.');
  }
}
