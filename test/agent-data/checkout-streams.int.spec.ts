import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentAccountStream } from '#agent-billing';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay } from './support/agent-client.js';

// Anyone may ask for a checkout link: recorded on the account's stream, each call would make
// every later command of that account read one more event. Each checkout has its
// own stream now; the account's stream does not move.
describe('checkout links do not grow the account stream', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api?.close();
  });

  async function streamLength(events: EventStore, stream: string): Promise<number> {
    let n = 0;
    for await (const _ of events.readStream(stream)) n++;
    return n;
  }

  it('twenty links for a key leave its account stream as it was, and each is in the log on its own stream', async () => {
    const issued = await pay(api.url);
    const events = api.app.get<EventStore>(EVENT_STORE);
    const before = await streamLength(events, agentAccountStream(issued.account_id));
    const sessions: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${api.url}/api/v1/agents/checkout-link?pack_id=pack_29`, {
        headers: { accept: 'application/json', 'x-api-key': issued.key.api_key },
      });
      assert.equal(res.status, 200);
      sessions.push(((await res.json()) as { session_id: string }).session_id);
    }
    assert.equal(await streamLength(events, agentAccountStream(issued.account_id)), before);
    for (const id of sessions.slice(0, 3)) {
      const recorded = [];
      for await (const e of events.readStream(`checkout-${id}`)) recorded.push(e);
      assert.deepEqual(
        recorded.map((e) => [e.type, (e.data as { account_id: string }).account_id]),
        [['CheckoutSessionOpened', issued.account_id]],
      );
    }
  });
});
