import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { AppError, FakeClock } from '#kernel';
import { ChangeUserRoleCommand, CreateMemberCommand, RemoveUserCommand } from '#identity';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { csrfToken, FormClient } from './support/form-client.js';
import { createUser, TEST_PASSWORD } from './support/users-fixtures.js';

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

async function signedIn(api: TestApi, email: string): Promise<FormClient> {
  const browser = new FormClient(api.url);
  const answer = await browser.signIn(email, TEST_PASSWORD);
  assert.equal(answer.status, 303, answer.body);
  assert.equal((await browser.get('/dashboard')).status, 200);
  return browser;
}

describe('user management commands (roster keeps the last admin, sessions end)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  before(async () => {
    api = await startTestApi({ clock });
  });
  after(async () => {
    await api?.close();
  });
  const bus = () => api.app.get(CommandBus);

  it('creates a member with no password anyone knows; the member chooses one through the reset link', async () => {
    const admin = await createUser(api.app, { email: 'invite-admin@example.com' });
    const created = await bus().execute(
      new CreateMemberCommand({ accountId: admin.accountId, email: 'Invited@Example.com', role: 'member' }),
    );
    assert.equal(created.role, 'member');
    assert.match(created.resetToken, /^[A-Za-z0-9_-]{43}$/);
    const browser = new FormClient(api.url);
    const form = await browser.get(`/password/reset?token=${created.resetToken}`);
    assert.equal(form.status, 200);
    const done = await browser.post('/password/reset', {
      _csrf: csrfToken(form.body),
      token: created.resetToken,
      new_password: TEST_PASSWORD,
      confirm_password: TEST_PASSWORD,
    });
    assert.deepEqual([done.status, done.headers.get('location')], [303, '/login?reset=1'], done.body);
    const member = await signedIn(api, 'invited@example.com');
    assert.match((await member.get('/dashboard')).body, /\(member\)/);
  });

  it('changes a role and ends that user’s sessions; the new role shows after signing in again', async () => {
    const admin = await createUser(api.app, { email: 'role-admin@example.com' });
    const member = await createUser(api.app, {
      email: 'role-member@example.com',
      role: 'member',
      accountId: admin.accountId,
    });
    const browser = await signedIn(api, member.email);
    const result = await bus().execute(
      new ChangeUserRoleCommand({ accountId: admin.accountId, userId: member.userId, role: 'admin' }),
    );
    assert.deepEqual(result, { changed: true });
    const bounced = await browser.get('/dashboard');
    assert.equal(bounced.status, 303);
    assert.match(bounced.headers.get('location') ?? '', /^\/login/);
    const again = await signedIn(api, member.email);
    assert.match((await again.get('/dashboard')).body, /\(admin\)/);
  });

  it('removes a user: their session ends at once and they cannot sign in again', async () => {
    const admin = await createUser(api.app, { email: 'rm-admin@example.com' });
    const member = await createUser(api.app, {
      email: 'rm-member@example.com',
      role: 'member',
      accountId: admin.accountId,
    });
    const browser = await signedIn(api, member.email);
    await bus().execute(new RemoveUserCommand({ accountId: admin.accountId, userId: member.userId }));
    const bounced = await browser.get('/dashboard');
    assert.equal(bounced.status, 303);
    assert.match(bounced.headers.get('location') ?? '', /^\/login/);
    const retry = await new FormClient(api.url).signIn(member.email, TEST_PASSWORD);
    assert.notEqual(retry.status, 303);
  });

  it('refuses to demote or remove the last admin (409 LAST_ADMIN), and leaves their session', async () => {
    const admin = await createUser(api.app, { email: 'last-admin@example.com' });
    const browser = await signedIn(api, admin.email);
    for (const command of [
      new ChangeUserRoleCommand({ accountId: admin.accountId, userId: admin.userId, role: 'member' }),
      new RemoveUserCommand({ accountId: admin.accountId, userId: admin.userId }),
    ]) {
      const error = await refusal(bus().execute(command));
      assert.equal(error.kind, 'conflict');
      assert.equal(error.code, 'LAST_ADMIN');
      assert.match(error.message, /last admin of the account/);
    }
    assert.equal((await browser.get('/dashboard')).status, 200);
  });

  it('of two concurrent demotions of the two last admins exactly one passes', async () => {
    const a = await createUser(api.app, { email: 'race-a@example.com' });
    const b = await createUser(api.app, { email: 'race-b@example.com', accountId: a.accountId });
    const results = await Promise.allSettled(
      [a, b].map((u) =>
        bus().execute(new ChangeUserRoleCommand({ accountId: a.accountId, userId: u.userId, role: 'member' })),
      ),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(refused.length, 1);
    assert.equal((refused[0]!.reason as AppError).code, 'LAST_ADMIN');
  });

  it('answers 404 for a user of another account', async () => {
    const mine = await createUser(api.app, { email: 'own-admin@example.com' });
    const other = await createUser(api.app, { email: 'other-admin@example.com' });
    const error = await refusal(
      bus().execute(new RemoveUserCommand({ accountId: mine.accountId, userId: other.userId })),
    );
    assert.equal(error.code, 'USER_NOT_FOUND');
  });

  it('the users page (forms): add a member who signs in via the shown link, change role, remove; 409 for the last admin; 403 for members', async () => {
    const admin = await createUser(api.app, { email: 'page-admin@example.com' });
    const browser = await signedIn(api, admin.email);
    const page = await browser.get('/dashboard/settings/users');
    assert.equal(page.status, 200);
    assert.match(page.body, /<a href="\/dashboard\/settings\/users" aria-current="page">Users<\/a>/);
    const added = await browser.post('/dashboard/settings/users', {
      _csrf: csrfToken(page.body),
      email: 'not <b>an</b> address',
      role: 'member',
    });
    assert.equal(added.status, 422, 'not an address: refused on the form');
    assert.match(added.body, /Email: must be an email address/);
    assert.doesNotMatch(added.body, /<b>an<\/b>/, 'escaped');
    const created = await browser.post('/dashboard/settings/users', {
      _csrf: csrfToken(page.body),
      email: 'page-member@example.com',
      role: 'member',
    });
    assert.deepEqual([created.status, created.headers.get('location')], [303, '/dashboard/settings/users']);
    const shown = await browser.get('/dashboard/settings/users');
    const path = /href="(\/password\/reset\?token=[A-Za-z0-9_-]{43})"/.exec(shown.body)?.[1];
    assert.ok(path, shown.body);
    assert.doesNotMatch((await browser.get('/dashboard/settings/users')).body, /password\/reset\?token/, 'shown once');

    const memberBrowser = new FormClient(api.url);
    const form = await memberBrowser.get(path);
    const reset = await memberBrowser.post('/password/reset', {
      _csrf: csrfToken(form.body),
      token: new URLSearchParams(path.split('?')[1]).get('token')!,
      new_password: TEST_PASSWORD,
      confirm_password: TEST_PASSWORD,
    });
    assert.equal(reset.status, 303, reset.body);
    const member = await signedIn(api, 'page-member@example.com');
    assert.equal((await member.get('/dashboard/settings/users')).status, 403);

    const row =
      shown.body.split('<tr>').find((r) => r.includes('page-member@example.com') && r.includes('/remove')) ?? '';
    const id = /action="\/dashboard\/settings\/users\/(usr_[^/"]+)\/remove"/.exec(row)?.[1];
    assert.ok(id);
    const promoted = await browser.post(`/dashboard/settings/users/${id}/role`, {
      _csrf: csrfToken(shown.body),
      role: 'admin',
    });
    assert.equal(promoted.status, 303);
    assert.equal((await member.get('/dashboard')).status, 303, 'a role change ends their session');
    const memberAgain = await signedIn(api, 'page-member@example.com');
    const removed = await browser.post(`/dashboard/settings/users/${id}/remove`, { _csrf: csrfToken(shown.body) });
    assert.equal(removed.status, 303);
    const bounced = await memberAgain.get('/dashboard');
    assert.equal(bounced.status, 303);
    assert.match(bounced.headers.get('location') ?? '', /^\/login/);

    const last = await browser.post(`/dashboard/settings/users/${admin.userId}/role`, {
      _csrf: csrfToken(shown.body),
      role: 'member',
    });
    assert.equal(last.status, 409);
    assert.match(last.body, /last admin of the account/);
  });
});
