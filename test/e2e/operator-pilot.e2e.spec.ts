import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PilotEndSweeper } from '#agent-workspace';
import { EVENT_STORE, type RecordedEvent } from '#eventstore';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from '../api/support/test-api.js';

type Json = Record<string, any>;
const DAY = 24 * 3600 * 1000;

/**
 * Journey (d): an agent buys the operator pilot (pack_2499) and works in its
 * workspace; 14 days later by the service's clock the pilot is over: the workspace is read-only
 * (writes 402 PILOT_ENDED, reads still served, data and keys kept), the service records the end
 * by itself, and buying the enterprise pack from the refusal's own link lifts it. The clock is
 * injected into the started service (no process can be moved 14 days otherwise).
 */
describe('journey (d): the operator pilot ends after 14 days on the service’s clock, as documented', () => {
  const clock = new FakeClock('2026-06-01T09:00:00.000Z');
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ clock, env: { SVC_DEMO_DATA: 'false' } });
  });
  after(async () => {
    await api?.close();
  });

  async function call(method: string, url: string, key?: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        accept: 'application/json',
        ...(key ? { 'x-api-key': key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : null) as Json };
  }

  /** Pays a hosted checkout through its page's form, as a browser would (JSON answer for the test). */
  async function payCheckout(url: string, times = 1): Promise<Json[]> {
    const page = await (await fetch(url)).text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    assert.ok(action, 'the checkout page has a Pay form');
    const target = new URL(action.replace(/&amp;/g, '&'), url);
    const answers = await Promise.all(
      Array.from({ length: times }, () => fetch(target, { method: 'POST', headers: { accept: 'application/json' } })),
    );
    return Promise.all(answers.map(async (a) => (await a.json()) as Json));
  }

  async function tenantEvents(tenantId: string): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    for await (const e of api.app.get(EVENT_STORE).readStream(`tenant-${tenantId}`)) out.push(e);
    return out;
  }

  it('pilot bought → used → read-only at its end (recorded by the service) → lifted by the enterprise pack', async () => {
    // What the agent reads first: the catalogue's operator pilot path.
    const catalog = (await call('GET', `${api.url}/api/v1/agents/catalog`)).json.data;
    const path = catalog.operator_pilot_path;
    assert.equal(path.pack_id, 'pack_2499');
    const issued = await call(path.method, path.endpoint, undefined, path.request_body_template);
    assert.equal(issued.status, 201, JSON.stringify(issued.json));
    const key = issued.json.key.api_key as string;

    // The Pay button pressed twice at once: one credit, one pilot.
    const paid = await payCheckout(issued.json.starter_checkout.url, 2);
    assert.deepEqual(paid.map((p) => p.credited).sort(), [false, true]);
    const workspace = paid[0]!.workspace;
    assert.equal(workspace.plan, 'pilot');
    assert.equal(workspace.pilot_ends_at, new Date(clock.now().getTime() + 14 * DAY).toISOString());

    // The success page says so too.
    const success = await (
      await fetch(`${api.url}/api/v1/billing/checkout/success?session_id=${issued.json.starter_checkout.session_id}`)
    ).text();
    assert.match(success, new RegExp(`id="workspace" data-tenant-id="${workspace.tenant_id}" data-plan="pilot"`));
    assert.match(success, new RegExp(`id="pilot-ends-at" datetime="${workspace.pilot_ends_at}"`));

    let status = (await call('GET', `${api.url}/api/v1/agents/status`, key)).json.data;
    assert.equal(status.workspace.plan, 'pilot');
    assert.equal(status.workspace.access, 'read_write');
    assert.equal(status.workspace.pilot.ends_at, workspace.pilot_ends_at);
    const companies = status.workspace.companies_url as string;

    const added = await call('POST', companies, key, { name: 'Pilot Robotics', domain: 'pilot-robotics.example' });
    assert.equal(added.status, 201, JSON.stringify(added.json));
    const memoUrl = `${companies}/${added.json.data.id}/memo`;
    assert.equal((await call('PATCH', memoUrl, key, { body: 'Day one.' })).status, 200);

    // One second before the end: still writable.
    clock.set(Date.parse(workspace.pilot_ends_at) - 1000);
    assert.equal((await call('PATCH', memoUrl, key, { body: 'Last day.' })).status, 200);

    // At the end, before the service has recorded it: writes refused, reads served, nothing charged.
    clock.set(Date.parse(workspace.pilot_ends_at));
    const before = (await call('GET', `${api.url}/api/v1/agents/status`, key)).json.data.balance_usd;
    const refused = await call('PATCH', memoUrl, key, { body: 'After the end.' });
    assert.equal(refused.status, 402);
    assert.equal(refused.json.code, 'PILOT_ENDED');
    assert.equal(refused.json.pilot_ended_at, workspace.pilot_ends_at);
    const buy = refused.json.next_actions.find((a: Json) => a.action === 'buy_enterprise');
    assert.equal(buy.pack_id, 'pack_10000');
    assert.equal(refused.headers.get('link'), `<${buy.url}>; rel="payment"`);
    assert.equal(
      (await call('POST', companies, key, { name: 'Late', domain: 'late.example' })).json.code,
      'PILOT_ENDED',
    );
    const memo = await call('GET', memoUrl, key);
    assert.equal(memo.status, 200, 'reads are still served');
    assert.equal(memo.json.data.body, 'Last day.', 'the data is kept');
    status = (await call('GET', `${api.url}/api/v1/agents/status`, key)).json.data;
    assert.equal(status.balance_usd, before - 3, 'only the read was charged');
    assert.equal(status.workspace.plan, 'pilot_ended');
    assert.equal(status.workspace.access, 'read_only');

    // The service records the end by itself (its sweeper, on the same clock): once.
    clock.advance(60_000);
    const sweeper = api.app.get(PilotEndSweeper);
    assert.equal(await sweeper.sweep(), 1);
    assert.equal(await sweeper.sweep(), 0);
    const ended = (await tenantEvents(workspace.tenant_id)).filter((e) => e.type === 'WorkspacePilotEnded');
    assert.equal(ended.length, 1);
    status = (await call('GET', `${api.url}/api/v1/agents/status`, key)).json.data;
    assert.equal(status.workspace.pilot.ended_at, clock.now().toISOString());

    // The refusal's own link: the enterprise pack, bound to this key; paid, the workspace is writable again.
    const checkout = await call('GET', buy.url);
    assert.equal(checkout.status, 200, JSON.stringify(checkout.json));
    const [enterprise] = await payCheckout(checkout.json.url);
    assert.equal(enterprise!.account_id, issued.json.account_id, 'credited to the pilot’s account');
    assert.equal(enterprise!.workspace.plan, 'enterprise');
    assert.equal((await call('PATCH', memoUrl, key, { body: 'Enterprise now.' })).status, 200);
    status = (await call('GET', `${api.url}/api/v1/agents/status`, key)).json.data;
    assert.equal(status.workspace.plan, 'enterprise');
    assert.equal(status.workspace.tenant_id, workspace.tenant_id, 'the same tenant: data and keys kept');
    assert.deepEqual(
      (await tenantEvents(workspace.tenant_id)).map((e) => e.type),
      ['WorkspaceTenantCreated', 'WorkspacePilotStarted', 'WorkspacePilotEnded', 'WorkspaceEnterpriseActivated'],
    );
  });
});
