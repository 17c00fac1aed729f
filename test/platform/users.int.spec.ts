import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { AppError, type ErrorKind, FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import {
  CreateUserCommand,
  normalizeEmail,
  UNCLAIMED_RESERVATION_GRACE_MS,
  userEmailStream,
  USERS_COLLECTION,
  USERS_PROJECTION,
  usersProjection,
  type UserDoc,
} from '#identity';
import { ProjectionRunner } from '#projections';
import { MemoryProjection } from '#projections/testing';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createAccount } from './support/platform-fixtures.js';

const PASSWORD = 'a long enough passphrase';

async function streamTypes(store: EventStore, stream: string): Promise<string[]> {
  const types: string[] = [];
  for await (const e of store.readStream(stream)) types.push(e.type);
  return types;
}

describe('users (event-sourced, unique emails)', () => {
  let api: TestApi;
  let accountId: string;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  before(async () => {
    api = await startTestApi({ clock });
    accountId = await createAccount(api.app);
  });
  after(async () => {
    await api?.close();
  });

  const create = (
    email: string,
    over: Partial<{ accountId: string; password: string; role: 'admin' | 'member' }> = {},
  ) =>
    api.app
      .get(CommandBus)
      .execute(new CreateUserCommand({ accountId, email, password: PASSWORD, role: 'member', ...over }));

  const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof AppError, String(error));
      return error;
    }
    assert.fail('expected a refusal');
  };

  it('creates a user whose read model shows no password hash', async () => {
    const user = await create(' Grace@Example.com ', { role: 'admin' });
    assert.match(user.userId, /^usr_[0-9A-Z]{26}$/);
    assert.deepEqual([user.email, user.role, user.accountId], ['Grace@Example.com', 'admin', accountId]);
    const doc = await api.app
      .get(ProjectionRunner)
      .store.collection<UserDoc>(USERS_PROJECTION, USERS_COLLECTION)
      .get(user.userId);
    assert.deepEqual(doc && { ...doc, _position: undefined }, {
      id: user.userId,
      account_id: accountId,
      email: 'Grace@Example.com',
      email_normalized: 'grace@example.com',
      role: 'admin',
      created_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
      _position: undefined,
    });
    assert.ok(!JSON.stringify(doc).includes('argon2'));
  });

  it('of many creations of one address at once, in any case, exactly one succeeds', async () => {
    const spellings = ['Lin@Example.org', 'lin@example.org', 'LIN@EXAMPLE.ORG', ' lin@Example.org', 'lIn@example.ORG'];
    const outcomes = await Promise.allSettled(spellings.map((email) => create(email)));
    const created = outcomes.filter((o) => o.status === 'fulfilled');
    assert.equal(created.length, 1, JSON.stringify(outcomes.map((o) => o.status)));
    for (const o of outcomes) {
      if (o.status === 'rejected') {
        assert.ok(o.reason instanceof AppError, String(o.reason));
        assert.equal(o.reason.kind, 'conflict');
        assert.equal(o.reason.code, 'USER_EMAIL_TAKEN');
      }
    }
    assert.deepEqual(await streamTypes(api.app.get(EVENT_STORE), userEmailStream('lin@example.org')), [
      'UserEmailReserved',
    ]);
    // Later, too.
    assert.equal((await refusal(create('LIN@example.org'))).code, 'USER_EMAIL_TAKEN');
  });

  it('refuses an unknown account, a bad address, a short password and an unknown role, reserving nothing', async () => {
    const store = api.app.get<EventStore>(EVENT_STORE);
    const cases: Array<[string, Parameters<typeof create>[1], string, ErrorKind]> = [
      ['nobody@example.com', { accountId: 'acct_01JZ0000000000000000000000' }, 'ACCOUNT_NOT_FOUND', 'not_found'],
      ['short@example.com', { password: 'too short' }, 'VALIDATION_FAILED', 'invalid'],
      ['role@example.com', { role: 'owner' as 'admin' }, 'VALIDATION_FAILED', 'invalid'],
    ];
    for (const [email, over, code, kind] of cases) {
      const error = await refusal(create(email, over));
      assert.deepEqual([error.code, error.kind], [code, kind], email);
      assert.equal(await store.streamRevision(userEmailStream(email)), null, email);
    }
    assert.equal((await refusal(create('not an address'))).code, 'VALIDATION_FAILED');
  });

  it('frees an address whose user was never created (the creator stopped), once the grace is over', async () => {
    const store = api.app.get<EventStore>(EVENT_STORE);
    const email = 'orphan@example.com';
    // A creation that reserved the address and stopped before appending the user.
    await store.append(
      userEmailStream(email),
      [
        {
          type: 'UserEmailReserved',
          data: {
            user_id: 'usr_01JZ0000000000000000000000',
            account_id: accountId,
            reserved_at: clock.now().toISOString(),
          },
        },
      ],
      'no_stream',
    );
    assert.equal((await refusal(create(email))).code, 'USER_EMAIL_TAKEN', 'still being created, for all we know');
    clock.advance(UNCLAIMED_RESERVATION_GRACE_MS);
    const user = await create(email);
    assert.equal(normalizeEmail(user.email), email);
    assert.deepEqual(await streamTypes(store, userEmailStream(email)), [
      'UserEmailReserved',
      'UserEmailReleased',
      'UserEmailReserved',
    ]);
  });

  it('users: each event applied twice changes nothing, and a rebuild equals the incremental read model', async () => {
    const h = new MemoryProjection(usersProjection);
    const recorded = h.record('user-usr_1', {
      type: 'UserCreated',
      data: {
        user_id: 'usr_1',
        account_id: 'acct_1',
        email: 'Ada@Example.com',
        role: 'member',
        password_hash: '$argon2id$…',
        created_at: '2026-03-01T10:00:00.000Z',
      },
    });
    await h.apply(recorded);
    const once = h.snapshot();
    await h.apply(recorded);
    assert.deepEqual(h.snapshot(), once);

    const runner = api.app.get(ProjectionRunner);
    const all = async () =>
      (await runner.store.collection(USERS_PROJECTION, USERS_COLLECTION).find({}, { sort: [['id', 1]], limit: 1000 }))
        .items;
    const incremental = await all();
    assert.ok(incremental.length >= 3);
    const [result] = await runner.rebuild(USERS_PROJECTION);
    assert.ok(result!.generation >= 2);
    assert.deepEqual(await all(), incremental);
  });
});
