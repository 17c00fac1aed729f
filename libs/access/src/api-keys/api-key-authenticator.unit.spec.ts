import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '#kernel';
import { generateApiKey, hashApiKey } from '#access';
import type { ProjectionStore, ReadYourWrites } from '#projections';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { ApiKeyUsageTracker } from './api-key-usage.js';
import type { ApiKeyDoc } from './api-keys.projection.js';

function setup(docs: ApiKeyDoc[], readYourWrites?: ReadYourWrites) {
  const lookups: unknown[] = [];
  const projections = {
    collection: () => ({
      find: async (filter: { key_hash: string }) => {
        lookups.push(filter);
        return { items: docs.filter((d) => d.key_hash === filter.key_hash).map((d) => ({ ...d })), nextCursor: null };
      },
    }),
  } as unknown as ProjectionStore;
  const touched: string[] = [];
  const usage = { touch: (id: string) => touched.push(id) } as unknown as ApiKeyUsageTracker;
  return { auth: new ApiKeyAuthenticator(projections, { env: 'test' }, usage, readYourWrites), lookups, touched };
}

function doc(key: string, over: Partial<ApiKeyDoc> = {}): ApiKeyDoc {
  return {
    id: 'key_1',
    account_id: 'acct_1',
    name: 'k',
    scopes: ['read'],
    key_hash: hashApiKey(key),
    display_prefix: key.slice(0, 13),
    surface: 'platform',
    environment: 'test',
    created_by: null,
    created_at: '2026-03-01T10:00:00.000Z',
    revoked_at: null,
    ...over,
  };
}

const failsWith = (code: string) => (e: unknown) =>
  e instanceof AppError && e.kind === 'unauthenticated' && e.code === code;

describe('ApiKeyAuthenticator', () => {
  it('resolves a key to its principal and records the use', async () => {
    const key = generateApiKey('test');
    const { auth, touched } = setup([doc(key)]);
    assert.deepEqual(await auth.authenticate(key, 'platform'), {
      kind: 'api_key',
      id: 'key_1',
      keyId: 'key_1',
      accountId: 'acct_1',
      scopes: ['read'],
      surface: 'platform',
      environment: 'test',
    });
    assert.deepEqual(touched, ['key_1']);
  });

  it('rejects a bad checksum, a malformed key and a key of the other environment before any lookup', async () => {
    const key = generateApiKey('test');
    const { auth, lookups } = setup([doc(key)]);
    const i = 12;
    const typo = key.slice(0, i) + (key[i] === 'x' ? 'y' : 'x') + key.slice(i + 1);
    await assert.rejects(async () => auth.authenticate(typo, 'platform'), failsWith('INVALID_KEY'));
    await assert.rejects(async () => auth.authenticate(key.slice(0, -1), 'platform'), failsWith('INVALID_KEY'));
    await assert.rejects(
      async () => auth.authenticate(generateApiKey('live'), 'platform'),
      failsWith('KEY_WRONG_ENVIRONMENT'),
    );
    assert.equal(lookups.length, 0);
  });

  it('looks a key up once per cache period, by its hash', async () => {
    const key = generateApiKey('test');
    const { auth, lookups } = setup([doc(key)]);
    for (let i = 0; i < 5; i++) await auth.authenticate(key, 'platform');
    assert.deepEqual(lookups, [{ key_hash: hashApiKey(key) }]);
  });

  it('does not cache unknown keys (a key created a moment later works at once)', async () => {
    const key = generateApiKey('test');
    const docs: ApiKeyDoc[] = [];
    const { auth } = setup(docs);
    await assert.rejects(async () => auth.authenticate(key, 'platform'), failsWith('INVALID_KEY'));
    docs.push(doc(key));
    assert.equal((await auth.authenticate(key, 'platform')).keyId, 'key_1');
  });

  it('REVOKED_KEY for a revoked key, and at once after revoked() even while the read model lags', async () => {
    const revokedKey = generateApiKey('test');
    const { auth } = setup([doc(revokedKey, { revoked_at: '2026-03-02T00:00:00.000Z' })]);
    await assert.rejects(async () => auth.authenticate(revokedKey, 'platform'), failsWith('REVOKED_KEY'));

    const key = generateApiKey('test');
    const lagging = setup([doc(key, { id: 'key_2' })]);
    await lagging.auth.authenticate(key, 'platform');
    lagging.auth.revoked('key_2');
    await assert.rejects(async () => lagging.auth.authenticate(key, 'platform'), failsWith('REVOKED_KEY'));
  });

  it('drops what it cached when the revocation watch stops (entries were trusted for longer)', async () => {
    const key = generateApiKey('test');
    const { auth, lookups } = setup([doc(key)]);
    auth.revocationWatch(true);
    await auth.authenticate(key, 'platform');
    await auth.authenticate(key, 'platform');
    assert.equal(lookups.length, 1);
    auth.revocationWatch(false);
    await auth.authenticate(key, 'platform');
    assert.equal(lookups.length, 2, 'looked up again once the watch is gone');
  });

  it('KEY_WRONG_SURFACE for a key of the other surface (D1)', async () => {
    const key = generateApiKey('test');
    const { auth } = setup([doc(key, { surface: 'agent' })]);
    await assert.rejects(async () => auth.authenticate(key, 'platform'), failsWith('KEY_WRONG_SURFACE'));
    assert.equal((await auth.authenticate(key, 'agent')).surface, 'agent');
  });

  describe('a key another process issued a moment ago (the read model behind the store)', () => {
    /** A read model that shows `late` only once it has caught up with the store. */
    function lagging(late: ApiKeyDoc, behind: boolean) {
      const docs: ApiKeyDoc[] = [];
      const waits: string[][] = [];
      const readYourWrites = {
        catchUpWithStore: async (projections: string[]) => {
          waits.push(projections);
          if (behind) docs.push(late);
          return behind;
        },
      } as unknown as ReadYourWrites;
      return { ...setup(docs, readYourWrites), waits };
    }

    it('given a miss, when the read model was behind, then it waits for the store and finds the key', async () => {
      const key = generateApiKey('test');
      const { auth, lookups, waits } = lagging(doc(key), true);
      assert.equal((await auth.authenticate(key, 'platform')).keyId, 'key_1');
      assert.deepEqual(waits, [['api-keys']]);
      assert.equal(lookups.length, 2, 'looked up again after the wait');
    });

    it('given a miss, when the read model already showed the head, then INVALID_KEY after one lookup', async () => {
      const key = generateApiKey('test');
      const { auth, lookups, waits } = lagging(doc(key), false);
      await assert.rejects(async () => auth.authenticate(key, 'platform'), failsWith('INVALID_KEY'));
      assert.equal(waits.length, 1);
      assert.equal(lookups.length, 1);
    });

    it('never waits for a key that fails its checksum (no lookup at all)', async () => {
      const key = generateApiKey('test');
      const { auth, lookups, waits } = lagging(doc(key), true);
      const broken = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
      await assert.rejects(async () => auth.authenticate(broken, 'platform'), failsWith('INVALID_KEY'));
      assert.deepEqual([waits.length, lookups.length], [0, 0]);
    });
  });
});
