import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { type Call, domainAccount, expectStatus, listAll } from './support/domain-client.js';

describe('/v1/repositories (real HTTP, embedded stores)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  let a: { accountId: string } & Record<'admin' | 'manager' | 'reader' | 'writer' | 'runner', Call>;
  let b: { accountId: string } & Record<'admin', Call>;

  before(async () => {
    api = await startTestApi({ clock });
    a = await domainAccount(api.app, api.url, {
      admin: ['admin'],
      manager: ['repositories:manage'],
      reader: ['read'],
      writer: ['write'],
      runner: ['agents:run'],
    });
    b = await domainAccount(api.app, api.url, { admin: ['admin'] });
  });
  after(async () => {
    await api?.close();
  });

  it('connects a repository (201) with the documented fields, and it is readable at once', async () => {
    const repo = expectStatus(await a.manager('POST', '/v1/repositories', { name: 'acme/web' }), 201, 'connect');
    assert.match(repo.id, /^repo_[0-9A-Z]{26}$/);
    assert.deepEqual(repo, {
      id: repo.id,
      name: 'acme/web',
      provider: 'github',
      url: 'https://github.com/acme/web',
      status: 'connected',
      connected_at: '2026-03-01T10:00:00.000Z',
      disconnected_at: null,
      last_analysis: null,
      security: null,
    });
    assert.deepEqual(expectStatus(await a.reader('GET', `/v1/repositories/${repo.id}`), 200), repo);
    const gitlab = expectStatus(
      await a.manager('POST', '/v1/repositories', { name: 'acme/infra', provider: 'gitlab' }),
      201,
    );
    assert.equal(gitlab.url, 'https://gitlab.com/acme/infra');
    const other = expectStatus(
      await a.manager('POST', '/v1/repositories', {
        name: 'acme/self-hosted',
        provider: 'other',
        url: 'https://git.acme.test/acme/self-hosted',
      }),
      201,
    );
    assert.equal(other.url, 'https://git.acme.test/acme/self-hosted');
  });

  it('a name already connected in the account → 409 REPOSITORY_EXISTS (case-insensitive); another account may connect it', async () => {
    const first = expectStatus(await a.manager('POST', '/v1/repositories', { name: 'acme/api' }), 201);
    const again = await a.manager('POST', '/v1/repositories', { name: 'ACME/Api' });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'REPOSITORY_EXISTS');
    assert.equal(again.body.error, 'conflict');
    assert.equal(again.body.repository_id, first.id);
    expectStatus(await b.admin('POST', '/v1/repositories', { name: 'acme/api' }), 201, 'other account');
  });

  it('two concurrent connections of one name: exactly one wins', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => a.manager('POST', '/v1/repositories', { name: 'acme/race' })),
    );
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('refuses malformed bodies with 400 and the failing paths', async () => {
    for (const body of [
      {},
      { name: 'no-slash' },
      { name: 'a/b/c' },
      { name: 'acme/web', provider: 'svn' },
      { name: 'acme/x', url: 'ftp://x' },
      { name: 'acme/x', extra: 1 },
    ]) {
      const res = await a.manager('POST', '/v1/repositories', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.ok(Array.isArray(res.body.details) && res.body.details.length > 0);
    }
  });

  it('scopes (D3): connect and disconnect need repositories:manage, reads need read, analyses need write', async () => {
    for (const call of [a.reader, a.writer, a.runner]) {
      const res = await call('POST', '/v1/repositories', { name: 'acme/scoped' });
      assert.equal(res.status, 403);
      assert.deepEqual([res.body.code, res.body.required_scope], ['INSUFFICIENT_SCOPE', 'repositories:manage']);
    }
    const repo = expectStatus(
      await a.admin('POST', '/v1/repositories', { name: 'acme/scoped' }),
      201,
      'admin implies all',
    );
    assert.equal((await a.runner('GET', '/v1/repositories')).status, 403);
    assert.equal((await a.manager('GET', `/v1/repositories/${repo.id}`)).status, 403);
    assert.equal((await a.writer('GET', `/v1/repositories/${repo.id}`)).status, 200, 'write implies read');
    const analysis = await a.manager('POST', `/v1/repositories/${repo.id}/analyses`, { summary: 'x' });
    assert.deepEqual([analysis.status, analysis.body.required_scope], [403, 'write']);
    const del = await a.writer('DELETE', `/v1/repositories/${repo.id}`);
    assert.deepEqual([del.status, del.body.required_scope], [403, 'repositories:manage']);
  });

  it("another account's repository is 404 everywhere", async () => {
    const theirs = expectStatus(await b.admin('POST', '/v1/repositories', { name: 'beta/secret' }), 201);
    for (const [method, path, body] of [
      ['GET', `/v1/repositories/${theirs.id}`],
      ['DELETE', `/v1/repositories/${theirs.id}`],
      ['POST', `/v1/repositories/${theirs.id}/analyses`, { summary: 'x' }],
      ['GET', `/v1/repositories/${theirs.id}/analyses`],
      ['GET', `/v1/repositories/${theirs.id}/vulnerabilities`],
      ['POST', `/v1/repositories/${theirs.id}/security-scans`, { vulnerabilities: [] }],
      ['GET', `/v1/repositories/${theirs.id}/security-scans`],
      ['GET', '/v1/repositories/repo_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ] as Array<[string, string, unknown?]>) {
      const res = await a.admin(method, path, body);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.code, 'REPOSITORY_NOT_FOUND');
    }
    assert.ok(!(await listAll(a.reader, '/v1/repositories?status=all')).some((r) => r.id === theirs.id));
  });

  it('reports analyses (201, repository.analyzed); the repository shows the latest; they list newest first', async () => {
    const repo = expectStatus(await a.manager('POST', '/v1/repositories', { name: 'acme/analysed' }), 201);
    clock.advance(1000);
    const first = expectStatus(
      await a.writer('POST', `/v1/repositories/${repo.id}/analyses`, {
        summary: 'Mostly TypeScript.',
        commit_sha: 'ABCDEF1',
        languages: ['TypeScript', 'CSS'],
        metrics: { files: 120, lines_of_code: 9400 },
      }),
      201,
    );
    assert.match(first.id, /^ana_[0-9A-Z]{26}$/);
    assert.deepEqual(first, {
      id: first.id,
      repository_id: repo.id,
      summary: 'Mostly TypeScript.',
      commit_sha: 'abcdef1',
      languages: ['TypeScript', 'CSS'],
      metrics: { files: 120, lines_of_code: 9400 },
      analyzed_at: '2026-03-01T10:00:01.000Z',
    });
    clock.advance(1000);
    const second = expectStatus(
      await a.writer('POST', `/v1/repositories/${repo.id}/analyses`, { summary: 'Second look.' }),
      201,
    );
    const shown = expectStatus(await a.reader('GET', `/v1/repositories/${repo.id}`), 200);
    assert.deepEqual(shown.last_analysis, {
      id: second.id,
      summary: 'Second look.',
      commit_sha: null,
      analyzed_at: '2026-03-01T10:00:02.000Z',
    });
    const list = expectStatus(await a.reader('GET', `/v1/repositories/${repo.id}/analyses`), 200);
    assert.deepEqual(
      list.data.map((x: { id: string }) => x.id),
      [second.id, first.id],
    );
    const bad = await a.writer('POST', `/v1/repositories/${repo.id}/analyses`, {
      summary: 'x',
      metrics: { 'Not Snake': 1 },
    });
    assert.equal(bad.status, 400);
  });

  it('disconnects (204), keeps it readable as disconnected; again → 404; it takes no analyses (409); the name can be connected again with a new id', async () => {
    const repo = expectStatus(await a.manager('POST', '/v1/repositories', { name: 'acme/old' }), 201);
    clock.advance(1000);
    const del = await a.manager('DELETE', `/v1/repositories/${repo.id}`);
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    const shown = expectStatus(await a.reader('GET', `/v1/repositories/${repo.id}`), 200);
    assert.equal(shown.status, 'disconnected');
    assert.equal(shown.disconnected_at, clock.now().toISOString());
    assert.equal((await a.manager('DELETE', `/v1/repositories/${repo.id}`)).body.code, 'REPOSITORY_NOT_FOUND');
    const analysis = await a.writer('POST', `/v1/repositories/${repo.id}/analyses`, { summary: 'x' });
    assert.deepEqual([analysis.status, analysis.body.code], [409, 'REPOSITORY_DISCONNECTED']);
    const scan = await a.writer('POST', `/v1/repositories/${repo.id}/security-scans`, { vulnerabilities: [] });
    assert.deepEqual([scan.status, scan.body.code], [409, 'REPOSITORY_DISCONNECTED']);
    const again = expectStatus(await a.manager('POST', '/v1/repositories', { name: 'acme/old' }), 201);
    assert.notEqual(again.id, repo.id);
    const connected = await listAll(a.reader, '/v1/repositories');
    assert.ok(
      connected.some((r) => r.id === again.id) && !connected.some((r) => r.id === repo.id),
      'the default list shows connected ones',
    );
    const gone = await listAll(a.reader, '/v1/repositories?status=disconnected');
    assert.ok(gone.some((r) => r.id === repo.id) && gone.every((r) => r.status === 'disconnected'));
  });

  it('lists newest first by cursor pages (D6); a bad cursor → 400', async () => {
    const c = await domainAccount(api.app, api.url, { admin: ['admin'] });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      made.push(expectStatus(await c.admin('POST', '/v1/repositories', { name: `paged/repo-${i}` }), 201).id);
    }
    const page1 = expectStatus(await c.admin('GET', '/v1/repositories?limit=2'), 200);
    assert.equal(page1.data.length, 2);
    assert.equal(page1.has_more, true);
    const page2 = expectStatus(
      await c.admin('GET', `/v1/repositories?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`),
      200,
    );
    const page3 = expectStatus(
      await c.admin('GET', `/v1/repositories?limit=2&cursor=${encodeURIComponent(page2.next_cursor)}`),
      200,
    );
    assert.equal(page3.has_more, false);
    assert.equal(page3.next_cursor, null);
    assert.deepEqual(
      [...page1.data, ...page2.data, ...page3.data].map((r: { id: string }) => r.id),
      [...made].reverse(),
    );
    assert.equal((await c.admin('GET', '/v1/repositories?cursor=garbage')).status, 400);
    assert.equal((await c.admin('GET', '/v1/repositories?limit=101')).status, 400);
    assert.equal((await c.admin('GET', '/v1/repositories?status=gone')).status, 400);
  });
});
