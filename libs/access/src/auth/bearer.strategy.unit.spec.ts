import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import passport from 'passport';
import { Strategy } from 'passport-http-bearer';
import type { ApiKeyAuthenticator } from '../api-keys/api-key-authenticator.js';
import type { BearerTokenResolvers } from './bearer-token-resolvers.js';
import { BearerStrategy } from './bearer.strategy.js';
import type { Principal } from './principal.js';

const principal: Principal = {
  kind: 'api_key',
  id: 'key_1',
  keyId: 'key_1',
  accountId: 'acct_1',
  scopes: ['read'],
  surface: 'platform',
  environment: 'test',
};

function strategy(resolve: (token: string) => Principal | Promise<Principal>) {
  return new BearerStrategy({ resolve } as unknown as BearerTokenResolvers);
}

describe('BearerStrategy.authenticateRequest (passport-http-bearer outcomes)', () => {
  it('resolves the principal of a Bearer token through the resolvers', async () => {
    const seen: string[] = [];
    const s = strategy(async (token) => (seen.push(token), principal));
    assert.deepEqual(await s.authenticateRequest({ headers: { authorization: 'Bearer tok_1' } }), {
      principal,
      challenge: undefined,
      status: undefined,
    });
    // The scheme is case-insensitive (RFC 6750 / passport-http-bearer).
    await s.authenticateRequest({ headers: { authorization: 'bearer tok_2' } });
    assert.deepEqual(seen, ['tok_1', 'tok_2']);
  });

  it('answers a challenge without a token, and status 400 for a malformed header', async () => {
    const s = strategy(async () => principal);
    const missing = await s.authenticateRequest({ headers: {} });
    assert.equal(missing.principal, undefined);
    assert.equal(missing.status, undefined);
    assert.match(String(missing.challenge), /^Bearer realm="svc"/);
    assert.deepEqual(await s.authenticateRequest({ headers: { authorization: 'Bearer' } }), {
      principal: undefined,
      challenge: undefined,
      status: 400,
    });
    assert.deepEqual(await s.authenticateRequest({ headers: { authorization: 'Bearer a b' } }), {
      principal: undefined,
      challenge: undefined,
      status: 400,
    });
    // Another scheme: no token found, the plain challenge.
    const basic = await s.authenticateRequest({ headers: { authorization: 'Basic dXNlcjpwdw==' } });
    assert.equal(basic.status, undefined);
    assert.match(String(basic.challenge), /^Bearer realm="svc"/);
  });

  it("rejects with the resolver's error (a 401 AppError in practice)", async () => {
    const failure = new Error('revoked');
    const s = strategy(async () => {
      throw failure;
    });
    await assert.rejects(
      async () => s.authenticateRequest({ headers: { authorization: 'Bearer tok' } }),
      (e) => e === failure,
    );
  });

  it("answers a missing header in the same tick, and a synchronous resolver's error as a rejection", async () => {
    const s = strategy((token) => {
      if (token === 'bad') throw new Error('invalid');
      return principal;
    });
    assert.deepEqual(await s.authenticateRequest({ headers: { authorization: 'Bearer tok' } }), {
      principal,
      challenge: undefined,
      status: undefined,
    });
    await assert.rejects(async () => s.authenticateRequest({ headers: { authorization: 'Bearer bad' } }), /invalid/);
    const missing = s.authenticateRequest({ headers: {} });
    assert.ok(!(missing instanceof Promise), 'passport-http-bearer fails a missing header synchronously');
    assert.match(String(missing.challenge), /^Bearer realm="svc"/);
  });

  it('an asynchronous resolver still gets a promise of the outcome', async () => {
    const s = strategy(async () => principal);
    const outcome = s.authenticateRequest({ headers: { authorization: 'Bearer tok' } });
    assert.ok(outcome instanceof Promise);
    assert.deepEqual(await outcome, { principal, challenge: undefined, status: undefined });
  });

  it('keeps concurrent requests apart', async () => {
    const s = strategy(async (token) => ({ ...principal, id: token }));
    const outcomes = await Promise.all(
      ['a', 'b', 'c'].map(async (t) => s.authenticateRequest({ headers: { authorization: `Bearer ${t}` } })),
    );
    assert.deepEqual(
      outcomes.map((o) => o.principal?.id),
      ['a', 'b', 'c'],
    );
  });
});

describe("BearerStrategy through the libraries' documented API (an upgrade that changes it fails here)", () => {
  it("hands the request to passport-http-bearer's verify callback (passReqToCallback): the agent surface asks agent keys only", async () => {
    const asked: string[] = [];
    const keys = {
      authenticate: (token: string, surface: string) => (asked.push(`${surface}:${token}`), principal),
      cachedPrincipal: () => undefined,
    } as unknown as ConstructorParameters<typeof BearerStrategy>[1];
    const s = new BearerStrategy(
      {
        resolve: () => {
          throw new Error('platform resolvers not asked on the agent surface');
        },
      } as unknown as BearerTokenResolvers,
      keys,
    );
    const outcome = await s.authenticateRequest({ headers: { authorization: 'Bearer svc_test_x' }, surface: 'agent' });
    assert.equal(outcome.principal, principal);
    assert.deepEqual(asked, ['agent:svc_test_x']);
  });

  it("is a @nestjs/passport strategy registered under its name in a Passport instance of its own, not passport's global one", async () => {
    const s = strategy(() => principal);
    const other = strategy(() => principal);
    assert.ok(s instanceof Strategy, 'extends passport-http-bearer through the PassportStrategy mixin');
    assert.notEqual(s.getPassportInstance(), other.getPassportInstance());
    assert.notEqual(s.getPassportInstance(), passport);
  });

  describe('a key the key cache holds', () => {
    /** A key cache that holds `tok_cached` only; `asked` records what it was asked. */
    function withCache(cached: () => Principal) {
      const asked: string[] = [];
      const resolved: string[] = [];
      const keys = {
        cachedPrincipal: (token: string | undefined, surface: string) => {
          asked.push(`${token}@${surface}`);
          return token === 'tok_cached' ? cached() : undefined;
        },
        authenticate: (token: string, surface: string) => (asked.push(`full:${token}@${surface}`), principal),
      } as unknown as ApiKeyAuthenticator;
      const s = new BearerStrategy(
        { resolve: async (token: string) => (resolved.push(token), principal) } as unknown as BearerTokenResolvers,
        keys,
      );
      return { s, asked, resolved };
    }

    it('given a cached key, when a request carries it, then its principal comes back in the same tick without passport', () => {
      const { s, resolved } = withCache(() => principal);
      const outcome = s.authenticateRequest({ headers: { authorization: 'Bearer tok_cached' } });
      assert.ok(!(outcome instanceof Promise), 'answered synchronously');
      assert.deepEqual(outcome, { principal, challenge: undefined, status: undefined });
      assert.deepEqual(resolved, [], 'the verify step did not run');
    });

    it("given a cached key that is revoked, then the cache's 401 is thrown as the verify step would", () => {
      const revoked = new Error('REVOKED_KEY');
      const { s } = withCache(() => {
        throw revoked;
      });
      assert.throws(() => s.authenticateRequest({ headers: { authorization: 'Bearer tok_cached' } }), revoked);
    });

    it('reads the token as passport-http-bearer does; anything else goes through passport', async () => {
      const { s, asked, resolved } = withCache(() => principal);
      assert.equal(
        (await s.authenticateRequest({ headers: { authorization: 'bearer tok_cached' } })).principal,
        principal,
      );
      await s.authenticateRequest({ headers: { authorization: 'Bearer tok_other' }, surface: 'agent' });
      assert.deepEqual(await s.authenticateRequest({ headers: { authorization: 'Bearer tok_cached extra' } }), {
        principal: undefined,
        challenge: undefined,
        status: 400,
      });
      assert.deepEqual(asked, ['tok_cached@platform', 'tok_other@agent', 'full:tok_other@agent', 'undefined@platform']);
      assert.deepEqual(resolved, [], 'an agent-surface token goes to the key authenticator, not the resolvers');
    });
  });
});
