import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Doc } from '#documents';
import { SqliteEventStore } from '#eventstore';
import { ACCOUNTS_COLLECTION, accountsProjection, type AccountEvent, accountStream } from '#identity';
import { API_KEYS_COLLECTION, apiKeysProjection, type ApiKeyEvent, apiKeyStream } from '#access';
import { ProjectionRunner, type ProjectionDefinition } from '#projections';
import { type EmbeddedProjections, MemoryProjection, openEmbeddedProjections } from '#projections/testing';

const created: AccountEvent = {
  type: 'AccountCreated',
  data: {
    account_id: 'acct_1',
    name: 'Acme',
    plan: 'free',
    limits: { per_minute: 60, per_hour: 1000 },
    created_at: '2026-03-01T10:00:00.000Z',
  },
};
const planChanged: AccountEvent = {
  type: 'AccountPlanChanged',
  data: {
    account_id: 'acct_1',
    plan: 'team',
    limits: { per_minute: 300, per_hour: 10000 },
    changed_at: '2026-03-02T10:00:00.000Z',
  },
};
const keyCreated = (id: string, at: string): ApiKeyEvent => ({
  type: 'ApiKeyCreated',
  data: {
    key_id: id,
    account_id: 'acct_1',
    name: `key ${id}`,
    scopes: ['read'],
    key_hash: id.padEnd(64, '0'),
    display_prefix: 'svc_test_AbCd',
    surface: 'platform',
    environment: 'test',
    created_by: null,
    created_at: at,
  },
});
const keyRevoked = (id: string): ApiKeyEvent => ({
  type: 'ApiKeyRevoked',
  data: { key_id: id, account_id: 'acct_1', revoked_by: 'key_admin', revoked_at: '2026-03-03T10:00:00.000Z' },
});

/** Applying each event a second time right after the first leaves the documents unchanged. */
async function assertIdempotent(
  projection: ProjectionDefinition,
  events: Array<[stream: string, event: { type: string; data: unknown }]>,
): Promise<void> {
  const h = new MemoryProjection(projection);
  for (const [stream, event] of events) {
    const recorded = h.record(stream, event);
    await h.apply(recorded);
    const once = h.snapshot();
    await h.apply(recorded);
    assert.deepEqual(h.snapshot(), once, `${event.type} applied twice`);
  }
}

describe('accounts and api-keys projections', () => {
  it('accounts: each event applied twice changes nothing; the document follows the plan', async () => {
    await assertIdempotent(accountsProjection, [
      ['account-acct_1', created],
      ['account-acct_1', planChanged],
    ]);
    const h = new MemoryProjection(accountsProjection);
    await h.apply(h.record('account-acct_1', created));
    await h.apply(h.record('account-acct_1', planChanged));
    assert.deepEqual(h.snapshot()[ACCOUNTS_COLLECTION]!.acct_1, {
      id: 'acct_1',
      name: 'Acme',
      plan: 'team',
      limits: { per_minute: 300, per_hour: 10000 },
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-02T10:00:00.000Z',
    });
  });

  it('api-keys: each event applied twice changes nothing; revocation sets revoked_at', async () => {
    await assertIdempotent(apiKeysProjection, [
      ['apikey-key_1', keyCreated('key_1', '2026-03-01T10:00:00.000Z')],
      ['apikey-key_1', keyRevoked('key_1')],
    ]);
    const h = new MemoryProjection(apiKeysProjection);
    await h.apply(h.record('apikey-key_1', keyCreated('key_1', '2026-03-01T10:00:00.000Z')));
    await h.apply(h.record('apikey-key_1', keyRevoked('key_1')));
    const doc = h.snapshot()[API_KEYS_COLLECTION]!.key_1!;
    assert.equal(doc.revoked_at, '2026-03-03T10:00:00.000Z');
    assert.equal(doc.key_hash, 'key_1'.padEnd(64, '0'));
  });

  describe('rebuild equals incremental (runner over the embedded stores)', () => {
    let embedded: EmbeddedProjections;
    let events: SqliteEventStore;
    let runner: ProjectionRunner;
    before(async () => {
      embedded = await openEmbeddedProjections('platform-projections', [accountsProjection, apiKeysProjection]);
      ({ events, runner } = embedded);
    });
    after(async () => {
      await embedded?.close();
    });

    const all = (projection: string, collection: string): Promise<Doc[]> => embedded.all(projection, collection);

    it('rebuilding both projections from position 0 gives the same documents', async () => {
      await runner.start();
      await events.append(accountStream('acct_1'), [created], 'no_stream');
      for (let i = 1; i <= 5; i++)
        await events.append(
          apiKeyStream(`key_${i}`),
          [keyCreated(`key_${i}`, `2026-03-01T10:00:0${i}.000Z`)],
          'no_stream',
        );
      await events.append(accountStream('acct_1'), [planChanged], 0);
      await events.append(apiKeyStream('key_2'), [keyRevoked('key_2')], 0);
      const last = await events.append(apiKeyStream('key_4'), [keyRevoked('key_4')], 0);
      await runner.waitFor(last.position);
      const incremental = {
        accounts: await all('accounts', ACCOUNTS_COLLECTION),
        keys: await all('api-keys', API_KEYS_COLLECTION),
      };
      assert.equal(incremental.accounts.length, 1);
      assert.equal(incremental.keys.length, 5);
      assert.equal(incremental.keys.filter((k) => k.revoked_at !== null).length, 2);

      const results = await runner.rebuild();
      assert.deepEqual(
        results.map((r) => r.generation),
        [2, 2],
      );
      assert.deepEqual(
        { accounts: await all('accounts', ACCOUNTS_COLLECTION), keys: await all('api-keys', API_KEYS_COLLECTION) },
        incremental,
      );
    });
  });
});
