import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CheckedFetch } from './support/checked-fetch.js';
import { svcInProcess as svc } from './support/cli-in-process.js';
import { type LiveProcess, startApiProcess } from './support/processes.js';

type Json = Record<string, any>;

/**
 * Journey (c): an agent with a paid self-serve key asks for an operator pilot through
 * the lead form the service describes (sending its key); the operator lists the leads and
 * converts this one with the CLI; the tenant is on the agent's account, so the credits it bought
 * follow and its own key reaches the workspace. A lead sent without a key gets a new account.
 */
/** Every exchange with the api is checked against the OpenAPI document it serves (ADR 0079). */
let checked: CheckedFetch | undefined;
const fetch = (input: string | URL, init?: RequestInit): Promise<Response> =>
  checked ? checked.fetch(input, init) : globalThis.fetch(input, init);

describe('journey (c): a lead → svc leads convert → the tenant on the lead’s account, credits followed (built api, the CLI in process)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let api: LiveProcess;
  let site: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-leads-'));
    env = { SVC_DATA_DIR: dataDir };
    ({ api, url: site } = await startApiProcess({ ...env, SVC_DEMO_DATA: 'false', SVC_BOOTSTRAP: 'false' }));
    checked = new CheckedFetch(site);
  });
  after(async () => {
    await api?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    checked?.assertAgreed();
  });

  async function call(method: string, url: string, key?: string, body?: unknown) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        accept: 'application/json',
        ...(key ? { 'x-api-key': key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: (text ? JSON.parse(text) : null) as Json };
  }

  const cli = async (...args: string[]) => {
    const out = await svc(args, env);
    return {
      ...out,
      lines: out.stdout.trim()
        ? out.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as Json)
        : [],
    };
  };

  /** `call` with a key the CLI has just made, once the running api has projected it (not 401). */
  async function callOnceKnown(method: string, url: string, key: string) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await call(method, url, key);
      if (answer.status !== 401 || Date.now() > deadline) return answer;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The leads as `svc leads list` prints them, once the running api has projected `leadId`. */
  async function listedLead(leadId: string, ...filter: string[]): Promise<Json> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const listed = await cli('leads', 'list', ...filter);
      assert.equal(listed.code, 0, listed.stderr);
      const lead = listed.lines.find((l) => l.id === leadId);
      if (lead) return lead;
      if (Date.now() > deadline) throw new Error(`svc leads list never showed ${leadId}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('a keyed lead converts onto its account: credits and key follow; converting again changes nothing', async () => {
    // The agent: a key and 29 USD of credits (the catalogue's fastest path, paid on the checkout page).
    const catalog = (await call('GET', `${site}/api/v1/agents/catalog`)).json.data;
    const path = catalog.fastest_revenue_path;
    const issued = await call(path.method, path.endpoint, undefined, path.request_body_template);
    assert.equal(issued.status, 201, issued.text);
    const key = issued.json.key.api_key as string;
    const checkout = issued.json.starter_checkout.url as string;
    const action = /<form method="post" action="([^"]+)"/.exec(await (await fetch(checkout)).text())![1]!;
    const paid = await fetch(new URL(action.replace(/&amp;/g, '&'), checkout), {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    assert.equal(paid.status, 200);

    // The lead form the catalogue links (enterprise_upgrade.page_url), posted with the key.
    const form = (await call('GET', catalog.enterprise_upgrade.page_url)).json.data;
    const lead = await call(form.method, form.url, key, { ...form.example, contact_email: 'ops@helio.example' });
    assert.equal(lead.status, 201, lead.text);
    const leadId = lead.json.data.lead_id as string;

    // The operator: list the leads, convert this one.
    const listed = await listedLead(leadId, '--status', 'received');
    assert.equal(listed.account_id, issued.json.account_id, 'the lead names the key’s account');
    assert.equal(listed.contact_email, 'ops@helio.example');
    const converted = await cli('leads', 'convert', '--lead', leadId);
    assert.equal(converted.code, 0, converted.stderr);
    const tenant = converted.lines[0]!;
    assert.equal(tenant.account_id, issued.json.account_id, 'the tenant is on the lead’s account');
    assert.equal(tenant.plan, 'pilot');
    assert.equal(tenant.key, null, 'no new key: the account’s own keys are tenant-bound now');
    assert.equal(tenant.converted, true);

    // The agent: its key reaches the workspace, paid from the credits it bought before.
    const status = (await call('GET', `${site}/api/v1/agents/status`, key)).json.data;
    assert.equal(status.workspace.tenant_id, tenant.tenant_id);
    assert.equal(status.workspace.pilot.ends_at, tenant.pilot_ends_at);
    const companies = await call('GET', status.workspace.companies_url, key);
    assert.equal(companies.status, 200, companies.text);
    assert.equal(companies.headers.get('x-credits-balance'), '26.00', '29.00 bought, 3.00 for the list');

    // Running it again answers the same tenant; another account is refused (exit 2).
    const again = await cli('leads', 'convert', '--lead', leadId);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual({ ...again.lines[0], converted: true }, tenant);
    assert.equal(again.lines[0]!.converted, false);
    const other = await cli('leads', 'convert', '--lead', leadId, '--account', 'acct_01JAAAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(other.code, 2);
    assert.match(other.stderr, /converted already/);
    const shown = await listedLead(leadId, '--status', 'converted');
    assert.equal(shown.tenant_id, tenant.tenant_id);
  });

  it('a lead without a key converts onto a new account with a first key; an unknown lead exits 2', async () => {
    const lead = await call('POST', `${site}/api/v1/agents/leads`, undefined, {
      contact_email: 'cfo@nokey.example',
      company: 'No Key Capital',
      objective: 'enterprise',
    });
    assert.equal(lead.status, 201, lead.text);
    const leadId = lead.json.data.lead_id as string;
    assert.equal((await listedLead(leadId)).account_id, null);
    const converted = await cli('leads', 'convert', '--lead', leadId);
    assert.equal(converted.code, 0, converted.stderr);
    const tenant = converted.lines[0]!;
    assert.equal(tenant.plan, 'enterprise');
    assert.match(tenant.key.api_key, /^svc_test_/);
    const companies = await callOnceKnown('GET', `${site}/api/v1/workspace/companies`, tenant.key.api_key);
    assert.equal(companies.status, 402, 'a tenant key of a new account: no credits yet');

    const unknown = await cli('leads', 'convert', '--lead', 'lead_01JAAAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /No lead with this id/);
  });
});
