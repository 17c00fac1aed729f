import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { agentAccountStream } from '#agent-billing';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, postJson, withKey } from './support/agent-client.js';

// Today's rule in a controller read the read model and could be raced: two keys revoking each
// other (or themselves) at once both saw another active key, and the account was locked out.
describe('an agent account always keeps an active key, also under concurrent revocations', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api?.close();
  });

  async function twoKeys(): Promise<{
    accountId: string;
    a: { id: string; api_key: string };
    b: { id: string; api_key: string };
  }> {
    const issued = await pay(api.url);
    const created = await fetch(
      `${api.url}/api/v1/agents/keys`,
      withKey(issued.key.api_key, postJson({ name: 'second' })),
    );
    assert.equal(created.status, 201);
    const b = ((await created.json()) as { key: { id: string; api_key: string } }).key;
    return { accountId: issued.account_id, a: { id: issued.key.id, api_key: issued.key.api_key }, b };
  }

  const revoke = (key: string, id: string) =>
    fetch(`${api.url}/api/v1/agents/keys/${id}`, withKey(key, { method: 'DELETE' }));
  const works = async (key: string) => (await fetch(`${api.url}/api/v1/agents/status`, withKey(key))).status === 200;

  for (const round of [1, 2, 3, 4, 5]) {
    it(`two keys revoking each other at once: exactly one wins (round ${round})`, async () => {
      const { a, b } = await twoKeys();
      const answers = await Promise.all([revoke(a.api_key, b.id), revoke(b.api_key, a.id)]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [204, 409]);
      const alive = [await works(a.api_key), await works(b.api_key)];
      assert.equal(alive.filter(Boolean).length, 1, `exactly one key still works: ${JSON.stringify(alive)}`);
    });
  }

  it('two keys revoking themselves at once: one is refused with LAST_ACTIVE_KEY', async () => {
    const { a, b } = await twoKeys();
    const answers = await Promise.all([revoke(a.api_key, a.id), revoke(b.api_key, b.id)]);
    const codes = await Promise.all(
      answers.map(async (r) => (r.status === 204 ? 204 : ((await r.json()) as { code: string }).code)),
    );
    assert.deepEqual(codes.sort(), [204, 'LAST_ACTIVE_KEY'].sort());
    assert.equal([await works(a.api_key), await works(b.api_key)].filter(Boolean).length, 1);
  });

  it("the account stream records its active keys (the decision is the aggregate's)", async () => {
    const { accountId, a, b } = await twoKeys();
    assert.equal((await revoke(b.api_key, a.id)).status, 204);
    const events = api.app.get<EventStore>(EVENT_STORE);
    const recorded = [];
    for await (const e of events.readStream(agentAccountStream(accountId))) recorded.push(e);
    const keyEvents = recorded.filter((e) => e.type === 'AgentKeyIssued' || e.type === 'AgentKeyRevoked');
    assert.deepEqual(
      keyEvents.map((e) => [e.type, (e.data as { active_key_ids: string[] }).active_key_ids]),
      [
        ['AgentKeyIssued', [a.id]],
        ['AgentKeyIssued', [a.id, b.id]],
        ['AgentKeyRevoked', [b.id]],
      ],
    );
  });
});
