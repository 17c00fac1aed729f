import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ApiKeyDoc,
  ApiKeyAuthenticator,
  type ApiKeyUsageTracker,
  BearerStrategy,
  type BearerTokenResolvers,
  generateApiKey,
  parseApiKey,
} from '#access';
import type { ProjectionStore } from '#projections';
import { AgentAuthenticator } from './agent-auth.js';

/** The access lib's authenticator over a one-document read model. */
function setup() {
  const key = generateApiKey('test');
  const parsed = parseApiKey(key);
  if (!parsed.ok) throw new Error('generated key does not parse');
  const doc = {
    id: 'key_01J000000000000000000000AA',
    account_id: 'acct_1',
    scopes: ['read'],
    surface: 'agent',
    environment: 'test',
    key_hash: parsed.hash,
    revoked_at: null,
  } as unknown as ApiKeyDoc;
  let lookups = 0;
  const projections = {
    collection: () => ({
      find: async () => {
        lookups++;
        return { items: [doc], nextCursor: null };
      },
    }),
  } as unknown as ProjectionStore;
  const usage = { touch: () => undefined } as unknown as ApiKeyUsageTracker;
  const keys = new ApiKeyAuthenticator(projections, { env: 'test' }, usage);
  // The agent surface authenticates through the one passport strategy, told it is the agent surface.
  const bearer = new BearerStrategy(
    { resolve: () => Promise.reject(new Error('platform resolvers not used here')) } as unknown as BearerTokenResolvers,
    keys,
  );
  return { key, doc, keys, agents: new AgentAuthenticator(bearer), lookups: () => lookups };
}

describe("agent keys: one key cache (the access lib's)", () => {
  it('answers a known key from the one cache, without a second lookup', async () => {
    const { key, agents, lookups } = setup();
    const first = await agents.require({ headers: { 'x-api-key': key } });
    assert.equal(first.accountId, 'acct_1');
    const again = await agents.require({ headers: { 'x-api-key': key } });
    assert.equal(again.accountId, 'acct_1');
    assert.equal(lookups(), 1);
  });

  it('refuses a key as soon as the cache learns of its revocation (another process, through the watch)', async () => {
    const { key, doc, keys, agents } = setup();
    await agents.require({ headers: { 'x-api-key': key } });
    // What ApiKeyRevocationWatch does when another process revokes the key.
    keys.revoked(doc.id);
    await assert.rejects(
      async () => agents.require({ headers: { 'x-api-key': key } }),
      (e: { code?: string }) => e.code === 'REVOKED_KEY',
    );
  });
});
