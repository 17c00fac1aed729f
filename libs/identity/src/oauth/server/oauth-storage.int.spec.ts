import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteDocumentStore } from '#documents';
import { FakeClock } from '#kernel';
import { oauthCollection, OAuthStorage, tokenHash } from './oauth-storage.js';

describe("oidc-provider's storage on the document store (OAuthStorage)", () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  let storage: OAuthStorage;
  const clock = new FakeClock('2026-03-01T10:00:00Z');
  const heard: string[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'oauth-storage-'));
    documents = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
    storage = new OAuthStorage(documents, clock);
    storage.onRevocation({
      tokenDestroyed: (hash) => heard.push(`token ${hash}`),
      grantRevoked: (grantId) => heard.push(`grant ${grantId}`),
      clientDeleted: (clientId) => heard.push(`client ${clientId}`),
    });
  });
  after(async () => {
    await documents.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a token by the SHA-256 of its value, without the value, and gives it back whole', async () => {
    const tokens = storage.adapterFor('AccessToken');
    const value = 'a'.repeat(43);
    await tokens.upsert(value, { jti: value, grantId: 'g1', clientId: 'oac_1', scope: 'read' }, 3600);
    const raw = await documents.collection(oauthCollection('AccessToken')).get(tokenHash(value));
    assert.ok(raw);
    assert.ok(!JSON.stringify(raw).includes(value), 'the value is not at rest');
    assert.deepEqual(await tokens.find(value), { grantId: 'g1', clientId: 'oac_1', scope: 'read', jti: value });
    assert.equal(await documents.collection(oauthCollection('AccessToken')).get(value), null);
  });

  it('expires entries on the service clock (not found, though still stored until the next purge)', async () => {
    const codes = storage.adapterFor('AuthorizationCode');
    await codes.upsert('code-1', { jti: 'code-1', grantId: 'g2' }, 60);
    assert.ok(await codes.find('code-1'));
    clock.advance(60_000);
    assert.equal(await codes.find('code-1'), undefined);
    assert.ok(await documents.collection(oauthCollection('AuthorizationCode')).get(tokenHash('code-1')));
  });

  it('consumes a code or refresh token once: of concurrent consumes on two connections one goes through, the others are told it was used, with its grant', async () => {
    const second = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
    try {
      const told: string[] = [];
      const lost = (model: string, grantId: string | null) => {
        told.push(`${model} ${grantId}`);
        return Promise.reject(new Error('used'));
      };
      const storages = [storage, new OAuthStorage(second, clock)];
      for (const model of ['AuthorizationCode', 'RefreshToken']) {
        told.length = 0;
        await storage.adapterFor(model).upsert('once', { jti: 'once', grantId: 'g9' }, 600);
        // As the provider does: each redemption finds the entry unused, then consumes it.
        const adapters = Array.from({ length: 8 }, (_, i) =>
          storages[i % 2]!.adapterFor(model, { consumedAlready: lost }),
        );
        for (const found of await Promise.all(adapters.map((x) => x.find('once'))))
          assert.equal(found?.consumed, undefined);
        const outcomes = await Promise.allSettled(adapters.map((x) => x.consume('once')));
        assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, `${model}: one consume goes through`);
        assert.deepEqual(told, Array(7).fill(`${model} g9`));
        assert.equal(
          (await storage.adapterFor(model).find('once'))?.consumed,
          Math.floor(clock.now().getTime() / 1000),
        );
      }
      // An entry consumed before consumed_at existed (the mark in its payload only) stays used.
      const codes = storage.adapterFor('AuthorizationCode', { consumedAlready: lost });
      await documents.collection(oauthCollection('AuthorizationCode')).upsert({
        id: tokenHash('old'),
        payload: { grantId: 'g8', consumed: 1 },
        grant_id: 'g8',
        client_id: null,
        uid: null,
        expires_at: clock.now().getTime() + 60_000,
        purge_at: clock.now().getTime() + 120_000,
      });
      told.length = 0;
      await assert.rejects(codes.consume('old'));
      assert.deepEqual(told, ['AuthorizationCode g8']);
    } finally {
      await second.close();
    }
  });

  it('marks consumption, finds sessions by uid, and revokes by grant (telling the listeners first)', async () => {
    const codes = storage.adapterFor('AuthorizationCode');
    await codes.upsert('code-2', { jti: 'code-2', grantId: 'g3' }, 60);
    await codes.consume('code-2');
    assert.equal(typeof (await codes.find('code-2'))?.consumed, 'number');

    const sessions = storage.adapterFor('Session');
    await sessions.upsert('s1', { jti: 's1', uid: 'u1', accountId: 'usr_1' }, 3600);
    assert.equal((await sessions.findByUid('u1'))?.accountId, 'usr_1');

    const refresh = storage.adapterFor('RefreshToken');
    await refresh.upsert('r1', { jti: 'r1', grantId: 'g3' }, 3600);
    await refresh.revokeByGrantId('g3');
    await codes.revokeByGrantId('g3');
    assert.equal(await refresh.find('r1'), undefined);
    assert.equal(await codes.find('code-2'), undefined);
    assert.ok(heard.includes('grant g3'));

    await storage.adapterFor('AccessToken').destroy('a'.repeat(43));
    assert.ok(heard.includes(`token ${tokenHash('a'.repeat(43))}`));
    assert.equal(await storage.adapterFor('AccessToken').find('a'.repeat(43)), undefined);
  });
});

describe('OAuthStorage purges each entry at its own expiry, an access token a day after it', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  let storage: OAuthStorage;
  const clock = new FakeClock('2026-03-01T10:00:00Z');
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'oauth-purge-'));
    documents = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
    storage = new OAuthStorage(documents, clock);
  });
  after(async () => {
    await documents.close();
    await rm(dir, { recursive: true, force: true });
  });

  const stored = async (model: string, id: string) =>
    (await documents.collection(oauthCollection(model)).get(id)) !== null;

  it('an expired interaction and session are purged, while an expired access token stays for /v1', async () => {
    const token = 'b'.repeat(43);
    await storage.adapterFor('Interaction').upsert('int-1', { jti: 'int-1', uid: 'int-1', state: 'x' }, 3600);
    await storage.adapterFor('Session').upsert('ses-1', { jti: 'ses-1', uid: 'u-1' }, 3600);
    await storage.adapterFor('AccessToken').upsert(token, { jti: token, grantId: 'g1' }, 3600);
    clock.advance(3600_000 + 1);
    await storage.purgeExpired();
    assert.equal(await stored('Interaction', 'int-1'), false, 'the interaction is gone at its expiry');
    assert.equal(await stored('Session', 'ses-1'), false, 'the session is gone at its expiry');
    assert.equal(await stored('AccessToken', tokenHash(token)), true, 'the access token is kept (EXPIRED_TOKEN)');
    assert.equal((await storage.accessToken(tokenHash(token)))?.payload.grantId, 'g1');

    clock.advance(24 * 3600_000);
    await storage.purgeExpired();
    assert.equal(await stored('AccessToken', tokenHash(token)), false, 'and goes a day after its expiry');
  });
});
