import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { AGENTS_PROJECTION, agentStream } from '#platform';
import { ProjectionRunner } from '#projections';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { type Call, domainAccount, expectStatus } from './support/domain-client.js';

function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
}

// Stores refuse deep nesting (SQLite's JSON functions past 1000 levels, MongoDB past 100): a
// config accepted once would be an event no read model could hold, stalling the projection.
describe('free-form JSON (agent config): bounded at the door, stored as text in read models', () => {
  let api: TestApi;
  let a: { accountId: string } & Record<'configurer' | 'reader', Call>;

  before(async () => {
    api = await startTestApi();
    a = await domainAccount(api.app, api.url, { configurer: ['agents:configure'], reader: ['read'] });
  });
  after(async () => {
    await api?.close();
  });

  it('refuses a config nested deeper than 20 levels or with more than 1,000 keys (400), on create and update', async () => {
    const deep = await a.configurer('POST', '/v1/agents', { name: 'Deep', template: 'custom', config: nested(21) });
    assert.equal(deep.status, 400);
    assert.equal(deep.body.code, 'VALIDATION_FAILED');
    assert.match(JSON.stringify(deep.body.details), /nested deeper than 20 levels/);
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    assert.equal(
      (await a.configurer('POST', '/v1/agents', { name: 'Wide', template: 'custom', config: wide })).status,
      400,
    );
    const ok = expectStatus(
      await a.configurer('POST', '/v1/agents', { name: 'Fine', template: 'custom', config: nested(20) }),
      201,
    );
    assert.equal((await a.configurer('PATCH', `/v1/agents/${ok.id}`, { config: nested(21) })).status, 400);
  });

  it('an event with a config deeper than any store allows (written before the limit) still projects', async () => {
    const events = api.app.get<EventStore>(EVENT_STORE);
    const agentId = 'agt_deep_legacy_1';
    const { position } = await events.append(
      agentStream(agentId),
      [
        {
          type: 'AgentCreated',
          data: {
            agent_id: agentId,
            account_id: a.accountId,
            name: 'Legacy',
            template: 'custom',
            config: nested(1200),
            created_by: null,
            created_at: '2026-03-01T10:00:00.000Z',
          },
        },
      ],
      'no_stream',
    );
    await api.app.get(ProjectionRunner).waitFor(position, { projections: [AGENTS_PROJECTION], timeoutMs: 5_000 });
    const read = expectStatus(await a.reader('GET', `/v1/agents/${agentId}`), 200);
    let depth = 0;
    for (let v = read.config; v && typeof v === 'object'; v = v.a ?? v.leaf) depth++;
    assert.equal(depth, 1200, 'the whole config reads back');
    const after = expectStatus(
      await a.configurer('POST', '/v1/agents', { name: 'After', template: 'custom', config: {} }),
      201,
    );
    assert.equal(
      expectStatus(await a.reader('GET', `/v1/agents/${after.id}`), 200).name,
      'After',
      'later events project too',
    );
  });
});
