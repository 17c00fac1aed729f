import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ModuleRef } from '@nestjs/core';
import type { z } from 'zod';
import { FakeClock, loadConfig } from '#kernel';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#eventstore';
import { AGENT_ACCOUNT_STATUS, type AgentAccountStatusProvider } from '#agent-surface';
import { AGENT_ENDPOINTS, AGENT_ERRORS, CatalogContextProvider } from '#agent-contract';
import { acquisitionSchema, trafficSchema } from '../../libs/agent-surface/src/catalog/acquisition.documents.js';
import {
  capabilitiesSchema,
  manifestSchema,
  quickstartSchema,
} from '../../libs/agent-surface/src/catalog/capabilities.documents.js';
import { catalogSchema } from '../../libs/agent-surface/src/catalog/catalog.document.js';
import { guidanceSchema } from '../../libs/agent-surface/src/catalog/guidance.document.js';
import { GetStatusHandler } from '../../libs/agent-surface/src/catalog/get-status/get-status.handler.js';
import { GetStatusQuery } from '../../libs/agent-surface/src/catalog/get-status/get-status.query.js';
import { leadsInfoSchema } from '../../libs/agent-surface/src/catalog/leads/leads-info.document.js';
import { leadReceivedSchema } from '../../libs/agent-surface/src/catalog/leads/submit-lead/submit-lead.schema.js';
import {
  conversionSchema,
  growthSchema,
  offersSchema,
  valueProofSchema,
} from '../../libs/agent-surface/src/catalog/purchase.documents.js';
import { errorCatalogSchema, recoverySchema } from '../../libs/agent-surface/src/catalog/recovery.documents.js';
import {
  registryIndexSchema,
  registryPackSchema,
} from '../../libs/agent-surface/src/catalog/registry-pack.document.js';
import { statusSchema, trustSchema } from '../../libs/agent-surface/src/catalog/status.documents.js';
import { startTestApi, type TestApi } from '../api/support/test-api.js';

const NOW = '2026-05-04T03:02:01.000Z';

/** Every information document: path under /api/v1/agents and the schema its answer must satisfy. */
const DOCUMENTS: Array<[string, z.ZodType]> = [
  ['catalog', catalogSchema],
  ['quote', guidanceSchema],
  ['recommend-tier', guidanceSchema],
  ['status', statusSchema],
  ['value-proof', valueProofSchema],
  ['capabilities', capabilitiesSchema],
  ['quickstart', quickstartSchema],
  ['offers', offersSchema],
  ['growth', growthSchema],
  ['acquisition', acquisitionSchema],
  ['recovery', recoverySchema],
  ['errors', errorCatalogSchema],
  ['manifest', manifestSchema],
  ['trust', trustSchema],
  ['conversion', conversionSchema],
  ['traffic', trafficSchema],
  ['registry-pack', registryIndexSchema],
  ['registry-pack/openai', registryPackSchema],
  ['registry-pack/mcp', registryPackSchema],
  ['registry-pack/generic', registryPackSchema],
  ['leads', leadsInfoSchema],
];

/** Every string leaf of a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/** No empty placeholders: no empty string, array or object anywhere except the spec's `offers: []`. */
function emptyPlaces(value: unknown, at = '$', out: string[] = []): string[] {
  if (value === '') out.push(at);
  else if (Array.isArray(value)) {
    if (value.length === 0 && !at.endsWith('.offers')) out.push(at);
    value.forEach((v, i) => emptyPlaces(v, `${at}[${i}]`, out));
  } else if (value && typeof value === 'object') {
    if (Object.keys(value).length === 0 && !at.includes('.properties')) out.push(at);
    for (const [k, v] of Object.entries(value)) emptyPlaces(v, `${at}.${k}`, out);
  }
  return out;
}

async function leadEvents(store: EventStore): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of store.readAll({ filter: { streamPrefixes: ['lead-'] } })) out.push(e);
  return out;
}

describe('agent catalogue and guidance over HTTP', () => {
  let api: TestApi;
  const clock = new FakeClock(NOW);
  before(async () => {
    api = await startTestApi({ clock });
  });
  after(async () => {
    await api?.close();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${api.url}/api/v1/agents/${path}`, { headers });
    return { res, body: (await res.json()) as Record<string, any> };
  };

  for (const [path, schema] of DOCUMENTS) {
    it(`GET /api/v1/agents/${path} answers 200 with its documented, non-empty document in the v1 envelope`, async () => {
      const { res, body } = await get(path);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(body.version, 'v1');
      assert.equal(body.as_of, NOW);
      schema.parse(body);
      assert.deepEqual(emptyPlaces(body.data), []);
      // Links are absolute, on the address the request came to.
      for (const s of strings(body.data).filter((x) => /^https?:\/\//.test(x))) assert.ok(s.startsWith(api.url), s);
    });
  }

  it('serves the catalogue with absolute checkout links to the checkout-link endpoint', async () => {
    const { body } = await get('catalog');
    assert.deepEqual(
      body.data.catalog.map((p: any) => [p.pack_id, p.amount_usd, p.base_credits_usd]),
      [
        ['pack_29', 29, 29],
        ['pack_99', 99, 110],
        ['pack_499', 499, 575],
        ['pack_2499', 2499, 3000],
        ['pack_10000', 10000, 12500],
      ],
    );
    const url = new URL(body.data.catalog[2].checkout_redirect_url);
    assert.equal(`${url.origin}${url.pathname}`, `${api.url}/api/v1/agents/checkout-link`);
    assert.equal(url.search, '?objective=growth&pack_id=pack_499&source=catalog');
    assert.deepEqual(
      body.data.service_catalog.map((s: any) => s.estimated_default_cost_usd),
      [3.5, 4.5, 17, 7, 17],
    );
  });

  it('guidance marks the objective pack preferred; aggressive recommends the next one; bad parameters are refused', async () => {
    const preferred = (b: any) =>
      b.data.options.filter((o: any) => o.preferred_for_objective).map((o: any) => o.pack_id);
    assert.deepEqual(preferred((await get('quote?objective=enterprise&segment=enterprise')).body), ['pack_10000']);
    assert.deepEqual(preferred((await get('recommend-tier?objective=growth&aggressive=false')).body), ['pack_499']);
    assert.deepEqual(preferred((await get('recommend-tier?objective=growth&aggressive=true')).body), ['pack_2499']);
    const quoted = (await get('quote?pack_id=pack_99&source=my-registry')).body;
    assert.deepEqual(preferred(quoted), ['pack_99']);
    assert.equal(new URL(quoted.data.options[0].checkout_redirect_url).searchParams.get('source'), 'my-registry');

    for (const bad of [
      'quote?objective=world_domination',
      'quote?aggressive=true',
      'recommend-tier?aggressive=yes',
      'quote?key_id=nope',
      'catalog?x=1',
      'errors?format=xml',
    ]) {
      const { res, body } = await get(bad);
      assert.equal(res.status, 400, bad);
      assert.equal(body.code, 'VALIDATION_FAILED');
      assert.equal(body.type, '/api/v1/agents/errors#VALIDATION_FAILED');
    }
  });

  it('answers an unknown registry-pack target with 404 problem+json pointing at its catalogue entry', async () => {
    const { res, body } = await get('registry-pack/myspace');
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(body.code, 'REGISTRY_TARGET_NOT_FOUND');
    const [, anchor] = String(body.type).split('#');
    const catalogue = (await get('errors')).body;
    assert.ok(
      catalogue.data.errors.some(
        (e: any) => e.code === anchor && e.status === 404 && e.type.endsWith(`/api/v1/agents/errors#${anchor}`),
      ),
    );
  });

  it('lists every catalogued error code in /agents/errors, sorted by status', async () => {
    const { body } = await get('errors');
    const codes = body.data.errors.map((e: any) => e.code);
    assert.deepEqual([...codes].sort(), AGENT_ERRORS.map((e) => e.code).sort());
    const statuses = body.data.errors.map((e: any) => e.status);
    assert.deepEqual(
      statuses,
      [...statuses].sort((a: number, b: number) => a - b),
    );
  });

  it('stores a valid lead as an event and answers 201 with its id', async () => {
    const store = api.app.get<EventStore>(EVENT_STORE);
    const before = (await leadEvents(store)).length;
    const res = await fetch(`${api.url}/api/v1/agents/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        contact_email: 'ops@example.com',
        company: 'Example Ventures',
        objective: 'enterprise',
        expected_monthly_calls: 2000,
      }),
    });
    assert.equal(res.status, 201);
    const body = leadReceivedSchema.parse(await res.json());
    assert.equal(body.as_of, NOW);
    assert.match(body.data.lead_id, /^lead_[0-9A-Z]{26}$/);
    assert.deepEqual([body.data.objective, body.data.pack_id, body.data.pilot_days], ['enterprise', 'pack_10000', 14]);
    const events = await leadEvents(store);
    assert.equal(events.length, before + 1);
    const stored = events.at(-1)!;
    assert.equal(stored.stream, `lead-${body.data.lead_id}`);
    assert.equal(stored.type, 'OperatorPilotLeadSubmitted');
    assert.equal((stored.data as any).contact_email, 'ops@example.com');
    assert.equal((stored.data as any).expected_monthly_calls, 2000);
  });

  it('refuses an invalid lead with 400 and stores nothing', async () => {
    const store = api.app.get<EventStore>(EVENT_STORE);
    const before = (await leadEvents(store)).length;
    const bad: Array<[unknown, string]> = [
      [{ contact_email: 'ops@example.com', budget: 'lots' }, 'body'],
      [{ contact_email: 'not-an-email' }, 'body.contact_email'],
      [{ company: 'No Email Inc' }, 'body.contact_email'],
      [{ contact_email: 'ops@example.com', objective: 'starter' }, 'body.objective'],
      [{ contact_email: 'ops@example.com', pack_id: 'pack_1' }, 'body.pack_id'],
    ];
    for (const [payload, path] of bad) {
      const res = await fetch(`${api.url}/api/v1/agents/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      assert.equal(res.status, 400, JSON.stringify(payload));
      const body = (await res.json()) as { code: string; details: Array<{ path: string }> };
      assert.equal(body.code, 'VALIDATION_FAILED');
      assert.ok(
        body.details.some((d) => d.path === path || d.path.startsWith(path)),
        `${JSON.stringify(body.details)} names ${path}`,
      );
    }
    const noBody = await fetch(`${api.url}/api/v1/agents/leads`, { method: 'POST' });
    assert.equal(noBody.status, 400);
    assert.equal((await leadEvents(store)).length, before);
  });

  it('GET /agents/status with a key adds the account of the accounts feature; a bad key gets 401', async () => {
    const pay = await fetch(`${api.url}/api/v1/agents/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(pay.status, 201);
    const { key } = (await pay.json()) as { key: { api_key: string } };
    const keyed = await get('status', { 'x-api-key': key.api_key });
    assert.equal(keyed.res.status, 200);
    statusSchema.parse(keyed.body);
    assert.equal(keyed.body.data.authenticated, true);
    assert.equal(keyed.body.data.balance_usd, 0);
    assert.equal(keyed.body.data.meters.length, 10);
    const bad = await get('status', { 'x-api-key': 'svc_test_nope' });
    assert.equal(bad.res.status, 401);
    assert.equal(bad.body.type, '/api/v1/agents/errors#INVALID_KEY');
  });

  it('stamps as_of from the injected clock on every answer, cached documents included', async () => {
    await get('catalog');
    const later = clock.advance(90_000).toISOString();
    try {
      for (const path of ['catalog', 'errors', 'quote', 'status'])
        assert.equal((await get(path)).body.as_of, later, path);
    } finally {
      clock.set(NOW);
    }
  });

  it('documents every route in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${api.url}/docs/api/openapi.v1.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const [path] of DOCUMENTS) {
      const templated = path.startsWith('registry-pack/')
        ? '/api/v1/agents/registry-pack/{target}'
        : `/api/v1/agents/${path}`;
      assert.ok(doc.paths[templated]?.get, `GET ${templated}`);
    }
    assert.ok(doc.paths['/api/v1/agents/leads']?.post);
    // The manifest offers no operation that does not exist: every row not marked planned is
    // served (advertised-routes.int.spec.ts requests them all).
    for (const e of AGENT_ENDPOINTS.filter((x) => x.status !== 'planned')) {
      assert.ok(
        doc.paths[`/api/v1${e.path}`]?.[e.method.toLowerCase()],
        `${e.method} /api/v1${e.path} is listed in AGENT_ENDPOINTS but not served`,
      );
    }
  });
});

describe('agent catalogue with SVC_PUBLIC_URL and meter price overrides', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({
      env: { SVC_PUBLIC_URL: 'https://agents.example.com/', SVC_METER_PRICES_USD: 'read.discovery_top=5.00' },
    });
  });
  after(async () => {
    await api?.close();
  });

  it('builds links from the public URL and quotes the configured prices; default costs stay the D17 ones', async () => {
    const catalog = (await (await fetch(`${api.url}/api/v1/agents/catalog`)).json()) as any;
    assert.ok(
      catalog.data.catalog[0].checkout_redirect_url.startsWith(
        'https://agents.example.com/api/v1/agents/checkout-link?',
      ),
    );
    assert.equal(catalog.data.service_catalog[0].estimated_default_cost_usd, 3.5);
    const status = (await (await fetch(`${api.url}/api/v1/agents/status`)).json()) as any;
    assert.equal(status.data.meters.find((m: any) => m.meter === 'read.discovery_top').price_usd, 5);
    assert.equal(status.data.meters.find((m: any) => m.meter === 'read.company_profile').price_usd, 2.5);
    const quickstart = (await (await fetch(`${api.url}/api/v1/agents/quickstart`)).json()) as any;
    assert.equal(quickstart.data.workflows[0].estimated_cost_usd, 5);
  });

  it('refuses to start with an unknown meter in SVC_METER_PRICES_USD', async () => {
    await assert.rejects(
      startTestApi({ env: { SVC_METER_PRICES_USD: 'read.crystal_ball=1.00' } }),
      /SVC_METER_PRICES_USD.*read\.crystal_ball/,
    );
  });
});

describe('GET /agents/status with a key (the status query)', () => {
  const config = loadConfig({ SVC_PUBLIC_URL: 'https://agents.example.com' });
  const catalog = new CatalogContextProvider(config, new FakeClock(NOW));
  const stores = { ping: async () => undefined } as never;
  const controller = (provider: AgentAccountStatusProvider | undefined) =>
    new GetStatusHandler(
      catalog,
      {
        get: (token: unknown) => {
          assert.equal(token, AGENT_ACCOUNT_STATUS);
          if (!provider) throw new Error('not found');
          return provider;
        },
      } as unknown as ModuleRef,
      stores,
      stores,
    );
  const request = (headers: Record<string, string>) => ({ headers, protocol: 'http', host: 'ignored' });

  it('merges the account part of the accounts feature when a key is sent, and only then', async () => {
    const calls: unknown[] = [];
    const provider: AgentAccountStatusProvider = {
      async accountStatus(req) {
        calls.push(req.headers['x-api-key']);
        return { authenticated: true, account: { id: 'acct_1' }, balance_usd: 12.5 };
      },
    };
    const keyed = (await controller(provider).execute(
      new GetStatusQuery(request({ 'x-api-key': 'svc_test_x' })),
    )) as any;
    statusSchema.parse(keyed);
    assert.deepEqual(
      [keyed.data.authenticated, keyed.data.account, keyed.data.balance_usd, keyed.data.status],
      [true, { id: 'acct_1' }, 12.5, 'operational'],
    );
    const anonymous = (await controller(provider).execute(new GetStatusQuery(request({})))) as any;
    assert.equal(anonymous.data.authenticated, false);
    assert.equal(anonymous.data.balance_usd, undefined);
    assert.deepEqual(calls, ['svc_test_x']);
  });

  it('lets the provider refuse a bad key, and answers the public status when no provider is registered', async () => {
    const refusing: AgentAccountStatusProvider = {
      async accountStatus() {
        throw Object.assign(new Error('bad key'), { status: 401 });
      },
    };
    await assert.rejects(
      controller(refusing).execute(new GetStatusQuery(request({ authorization: 'Bearer nope' }))),
      /bad key/,
    );
    const none = (await controller(undefined).execute(
      new GetStatusQuery(request({ 'x-api-key': 'svc_test_x' })),
    )) as any;
    assert.equal(none.data.authenticated, false);
    assert.equal(none.data.links.catalog, 'https://agents.example.com/api/v1/agents/catalog');
  });
});
