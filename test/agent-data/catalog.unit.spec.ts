// Over 400 lines on purpose: the catalogue documents' unit cases, sharing one context fixture.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AppError, ConfigError, type ErrorKind, loadConfig } from '#kernel';
import { httpErrorOf, publicBaseUrl } from '#http';
import {
  AGENT_ERRORS,
  CREDIT_PACKS,
  DEFAULT_METER_PRICES_CENTS,
  findPack,
  MCP_TOOLS,
  METER_NAMES,
  meterPrices,
  OBJECTIVES,
  packForObjective,
  RECOMMENDED_OBJECTIVE,
  STARTER_PACK_ID,
  type CatalogContext,
} from '#agent-contract';
import { buildCatalog, buildGuidance } from '#agent-surface';
import { buildQuickstart } from '../../libs/agent-surface/src/catalog/capabilities.documents.js';

const BASE = 'https://api.example.test';
/** The kind a catalogued status is raised with (the statuses the catalogue lists headers for). */
const KIND_OF_STATUS = {
  401: 'unauthenticated',
  402: 'payment_required',
  412: 'precondition_failed',
  409: 'conflict',
  429: 'rate_limited',
  503: 'unavailable',
} as const satisfies Record<number, ErrorKind>;
const ctx: CatalogContext = {
  baseUrl: BASE,
  prices: meterPrices(),
  env: 'test',
  rateLimitPerMinute: 600,
  autopayThresholdCents: 1000,
};

/** The spec's "Credit packs" table and the flags/capabilities paragraph, verbatim. */
const SPEC_PACKS = [
  { pack_id: 'pack_29', name: 'Agent Proof Pack 29', amount_usd: 29, credits_usd: 29, flag: 'fastest_revenue' },
  { pack_id: 'pack_99', name: 'Agent Starter Pack 99', amount_usd: 99, credits_usd: 110, flag: null },
  {
    pack_id: 'pack_499',
    name: 'Agent Continuous Pack 499',
    amount_usd: 499,
    credits_usd: 575,
    flag: 'twenty_four_seven',
  },
  { pack_id: 'pack_2499', name: 'Agent Scale Pack 2499', amount_usd: 2499, credits_usd: 3000, flag: 'operator_pilot' },
  {
    pack_id: 'pack_10000',
    name: 'Agent Enterprise Commit 10000',
    amount_usd: 10000,
    credits_usd: 12500,
    flag: 'enterprise',
  },
] as const;
const ENTRY_CAPS = ['entry-access', 'quickstart', 'proof-workloads'];
const ENTERPRISE_CAPS = ['production-usage', 'autopay', 'continuous-discovery'];
const SPEC_MCP_TOOLS = [
  'svc.signup',
  'svc.get_top_discovery',
  'svc.get_company',
  'svc.get_company_score',
  'svc.workspace.list_companies',
  'svc.workspace.get_memo',
  'svc.workspace.update_memo',
  'svc.workspace.update_deal',
  'svc.workspace.list_deals',
  'svc.workspace.upsert_followup',
  'svc.workspace.list_events',
  'svc.workspace.create_webhook',
  'svc.workspace.list_webhook_deliveries',
];

describe('credit packs', () => {
  it('are the five packs of the spec, in integer cents, with the starter pack pack_29', () => {
    assert.deepEqual(
      CREDIT_PACKS.map((p) => [p.pack_id, p.name, p.amount_cents, p.credits_cents]),
      SPEC_PACKS.map((p) => [p.pack_id, p.name, p.amount_usd * 100, p.credits_usd * 100]),
    );
    for (const p of CREDIT_PACKS) assert.ok(Number.isInteger(p.amount_cents) && Number.isInteger(p.credits_cents));
    assert.equal(STARTER_PACK_ID, 'pack_29');
    assert.equal(findPack('pack_499')?.credits_cents, 57_500);
    assert.equal(findPack('pack_30'), undefined);
    assert.equal(findPack(undefined), undefined);
  });

  it('pack_99 and larger grant more credits than they cost', () => {
    for (const p of CREDIT_PACKS) {
      if (p.pack_id === 'pack_29') assert.equal(p.credits_cents, p.amount_cents);
      else assert.ok(p.credits_cents > p.amount_cents, p.pack_id);
    }
  });

  it('map objectives to packs; starter_proof is the recommended objective and means starter', () => {
    assert.deepEqual([...OBJECTIVES], ['starter', 'growth', 'operator_pilot', 'enterprise']);
    assert.equal(RECOMMENDED_OBJECTIVE, 'starter_proof');
    assert.deepEqual(OBJECTIVES.map(packForObjective), ['pack_29', 'pack_499', 'pack_2499', 'pack_10000']);
    assert.equal(packForObjective('starter_proof'), 'pack_29');
    assert.equal(packForObjective(undefined), 'pack_29');
  });
});

describe('meters', () => {
  it('are the ten names of the spec with the D17 prices in cents', () => {
    assert.deepEqual(
      METER_NAMES.map((m) => [m, DEFAULT_METER_PRICES_CENTS[m]]),
      [
        ['read.discovery_top', 350],
        ['read.company_profile', 250],
        ['read.company_score', 200],
        ['read.workspace.company', 300],
        ['read.workspace.memo', 300],
        ['write.workspace.note', 600],
        ['write.workspace.followup', 300],
        ['read.workspace.events', 200],
        ['write.workspace.webhook', 400],
        ['deliver.workspace.webhook', 100],
      ],
    );
  });

  it('take overrides from SVC_METER_PRICES_USD and refuse unknown meters and bad syntax', () => {
    const config = loadConfig({ SVC_METER_PRICES_USD: 'read.discovery_top=4.00, read.company_score=1.5' });
    assert.deepEqual(config.meterPricesCents, { 'read.discovery_top': 400, 'read.company_score': 150 });
    const prices = meterPrices(config.meterPricesCents);
    assert.equal(prices['read.discovery_top'], 400);
    assert.equal(prices['read.company_score'], 150);
    assert.equal(prices['read.company_profile'], 250);
    assert.deepEqual(loadConfig({}).meterPricesCents, {});

    assert.throws(
      () => meterPrices({ 'read.everything': 100 }),
      (e: unknown) => e instanceof ConfigError && /SVC_METER_PRICES_USD.*read\.everything/.test(e.message),
    );
    for (const bad of [
      'read.discovery_top',
      'read.discovery_top=-1',
      'read.discovery_top=1.234',
      'READ=1',
      'read.discovery_top=abc',
    ]) {
      assert.throws(
        () => loadConfig({ SVC_METER_PRICES_USD: bad }),
        (e: unknown) =>
          e instanceof ConfigError &&
          /^Invalid configuration: SVC_METER_PRICES_USD=/.test(e.message) &&
          !e.message.includes('\n'),
        bad,
      );
    }
  });
});

describe('catalog document', () => {
  const data = buildCatalog(ctx);

  it('lists every pack field by field as the spec says', () => {
    assert.equal(data.catalog.length, 5);
    data.catalog.forEach((entry, i) => {
      const spec = SPEC_PACKS[i]!;
      const url = new URL(entry.checkout_redirect_url);
      assert.deepEqual(
        { ...entry, checkout_redirect_url: undefined },
        {
          pack_id: spec.pack_id,
          name: spec.name,
          amount_usd: spec.amount_usd,
          base_credits_usd: spec.credits_usd,
          payment_link: null,
          checkout_redirect_url: undefined,
          offers: [],
          recommendation: {
            fastest_revenue: spec.flag === 'fastest_revenue',
            twenty_four_seven: spec.flag === 'twenty_four_seven',
            operator_pilot: spec.flag === 'operator_pilot',
            enterprise: spec.flag === 'enterprise',
          },
          capabilities: spec.pack_id === 'pack_10000' ? ENTERPRISE_CAPS : ENTRY_CAPS,
        },
      );
      assert.equal(`${url.origin}${url.pathname}`, `${BASE}/api/v1/agents/checkout-link`);
      assert.deepEqual([...url.searchParams.keys()], ['objective', 'pack_id', 'source']);
      assert.equal(url.searchParams.get('pack_id'), spec.pack_id);
      assert.equal(url.searchParams.get('source'), 'catalog');
      assert.ok((OBJECTIVES as readonly string[]).includes(url.searchParams.get('objective')!));
    });
  });

  it('has the call to action and the two purchase paths to the pay endpoint', () => {
    assert.match(data.call_to_action, /POST https:\/\/api\.example\.test\/api\/v1\/agents\/pay/);
    assert.deepEqual(
      { ...data.fastest_revenue_path, request_body_template: undefined },
      { endpoint: `${BASE}/api/v1/agents/pay`, method: 'POST', pack_id: 'pack_29', request_body_template: undefined },
    );
    assert.equal(data.fastest_revenue_path.request_body_template.pack_id, 'pack_29');
    assert.equal(data.operator_pilot_path.pack_id, 'pack_2499');
    assert.equal(data.operator_pilot_path.request_body_template.objective, 'operator_pilot');
    assert.equal(data.enterprise_upgrade.page_url, `${BASE}/api/v1/agents/leads`);
  });

  it('has the five services with the spec costs, meters, MCP tool names and links', () => {
    assert.deepEqual(
      data.service_catalog.map((s) => [s.key, s.estimated_default_cost_usd]),
      [
        ['find', 3.5],
        ['evaluate', 4.5],
        ['operator_pilot', 17],
        ['monitor', 7],
        ['workspace_automation', 17],
      ],
    );
    for (const s of data.service_catalog) {
      assert.ok(['self_serve', 'enterprise'].includes(s.access));
      assert.ok(['now', 'expansion', 'enterprise'].includes(s.revenue_priority));
      assert.ok(['prepaid_per_call', 'prepaid_per_event', 'enterprise_commit'].includes(s.pricing_model));
      assert.ok(s.name && s.outcome && s.includes.length && s.included_endpoints.length && s.primary_meters.length);
      for (const m of s.primary_meters) assert.ok((METER_NAMES as readonly string[]).includes(m), m);
      for (const t of s.included_mcp_methods) assert.ok(SPEC_MCP_TOOLS.includes(t), t);
      for (const e of s.included_endpoints) assert.match(e, /^\/api\/v1\//);
      assert.ok(new URL(s.buy_now_url).pathname === '/api/v1/agents/checkout-link');
      assert.equal(s.upgrade_url !== undefined, s.access === 'enterprise', `upgrade_url on ${s.key}`);
    }
    assert.deepEqual(
      data.service_catalog.filter((s) => s.access === 'self_serve').map((s) => s.key),
      ['find', 'evaluate'],
    );
  });

  it('sells a workspace wherever it promises one: every enterprise-access service and workspace tier buys a pack that opens it (ADR 0078)', () => {
    const opens = (url: string) => findPack(new URL(url).searchParams.get('pack_id'))?.workspace;
    for (const s of data.service_catalog.filter((s) => s.access === 'enterprise'))
      assert.ok(
        opens(s.buy_now_url),
        `${s.key}: buy_now_url sells ${new URL(s.buy_now_url).searchParams.get('pack_id')}`,
      );
    const enterpriseServices = new Set(data.service_catalog.filter((s) => s.access === 'enterprise').map((s) => s.key));
    for (const t of data.revenue_tiers) {
      const promises =
        t.primary_service_keys.some((k) => enterpriseServices.has(k)) ||
        t.included.some((i) => /tenant|workspace/i.test(i));
      assert.equal(Boolean(opens(t.buy_now_url)), promises, `${t.key}: promises a workspace iff its pack opens one`);
    }
    assert.deepEqual(
      CREDIT_PACKS.map((p) => [p.pack_id, p.workspace ?? null]),
      [
        ['pack_29', null],
        ['pack_99', null],
        ['pack_499', null],
        ['pack_2499', 'pilot'],
        ['pack_10000', 'enterprise'],
      ],
    );
  });

  it('has the four revenue tiers with their documented fields', () => {
    assert.deepEqual(
      data.revenue_tiers.map((t) => t.key),
      ['builder_proof', 'builder_continuous', 'operator_pilot', 'enterprise_workspace'],
    );
    const services = new Set(data.service_catalog.map((s) => s.key));
    for (const t of data.revenue_tiers) {
      assert.deepEqual(Object.keys(t), [
        'key',
        'name',
        'buyer',
        'pricing_model',
        'best_for',
        'primary_service_keys',
        'buy_now_url',
        'included',
      ]);
      assert.ok(t.primary_service_keys.every((k) => services.has(k)));
      assert.ok(t.included.length > 0);
      assert.ok(new URL(t.buy_now_url).searchParams.get('pack_id'));
    }
  });

  it('names the spec MCP tools exactly', () => {
    assert.deepEqual(
      MCP_TOOLS.map((t) => t.name),
      SPEC_MCP_TOOLS,
    );
  });
});

describe('purchase guidance', () => {
  const preferred = (g: ReturnType<typeof buildGuidance>) =>
    g.options.filter((o) => o.preferred_for_objective).map((o) => o.pack_id);

  it('prefers the objective pack, and primary_buy_now sells it', () => {
    const expected = {
      starter: 'pack_29',
      growth: 'pack_499',
      operator_pilot: 'pack_2499',
      enterprise: 'pack_10000',
      starter_proof: 'pack_29',
    } as const;
    for (const [objective, pack] of Object.entries(expected)) {
      const g = buildGuidance(ctx, { objective: objective as keyof typeof expected, source: 'quote' });
      assert.deepEqual(preferred(g), [pack], objective);
      assert.equal(g.primary_buy_now.pack_id, pack);
      assert.equal(g.primary_buy_now.amount_usd, findPack(pack)!.amount_cents / 100);
      assert.equal(g.objective, objective);
      assert.equal(g.options.length, 5);
      for (const o of g.options) {
        assert.equal(o.checkout_url, null);
        assert.equal(o.offer_code, null);
        assert.equal(o.effective_credits_usd, o.credits_usd);
        assert.equal(new URL(o.checkout_redirect_url).searchParams.get('pack_id'), o.pack_id);
      }
    }
  });

  it('aggressive recommends the next larger pack; pack_id quotes that pack; a segment implies its objective', () => {
    assert.deepEqual(preferred(buildGuidance(ctx, { objective: 'starter', aggressive: true, source: 'x' })), [
      'pack_99',
    ]);
    assert.deepEqual(preferred(buildGuidance(ctx, { objective: 'operator_pilot', aggressive: true, source: 'x' })), [
      'pack_10000',
    ]);
    assert.deepEqual(preferred(buildGuidance(ctx, { objective: 'enterprise', aggressive: true, source: 'x' })), [
      'pack_10000',
    ]);
    assert.deepEqual(preferred(buildGuidance(ctx, { objective: 'starter', pack_id: 'pack_499', source: 'x' })), [
      'pack_499',
    ]);
    const operator = buildGuidance(ctx, { segment: 'operator', source: 'x' });
    assert.equal(operator.objective, 'operator_pilot');
    assert.deepEqual(preferred(operator), ['pack_2499']);
    assert.equal(buildGuidance(ctx, { source: 'x' }).segment, 'builder');
  });

  it('carries the paths, the pilot length, the endpoints and the payment flow; links keep source and the key binding', () => {
    const g = buildGuidance(ctx, {
      objective: 'growth',
      source: 'agent-registry',
      binding: { key_id: 'key_01J00000000000000000000000', exp: '1900000000', sig: 'S'.repeat(43) },
    });
    assert.equal(g.recommended_objective, 'starter_proof');
    assert.deepEqual(
      [g.twenty_four_seven_path.pack_id, g.operator_pilot_path.pack_id, g.enterprise_upgrade.pack_id],
      ['pack_499', 'pack_2499', 'pack_10000'],
    );
    assert.equal(g.operator_pilot_path.duration_days, 14);
    assert.equal(g.fastest_revenue_path.pack_id, 'pack_29');
    assert.equal(g.operator_pilot_payload_template.objective, 'operator_pilot');
    for (const u of [
      g.options[0]!.checkout_redirect_url,
      g.twenty_four_seven_path.checkout_redirect_url,
      g.enterprise_upgrade.checkout_redirect_url,
    ]) {
      const q = new URL(u).searchParams;
      assert.equal(q.get('source'), 'agent-registry');
      assert.equal(q.get('key_id'), 'key_01J00000000000000000000000');
      assert.equal(q.get('exp'), '1900000000');
      assert.equal(q.get('sig'), 'S'.repeat(43));
    }
    assert.equal(g.endpoints.pay, `${BASE}/api/v1/agents/pay`);
    assert.equal(g.endpoints.checkout_link, `${BASE}/api/v1/agents/checkout-link`);
    assert.ok(g.payment_flow.length >= 3 && g.why_buy_now.length >= 3);
    assert.equal(g.selected_pack_value.calls_covered['read.discovery_top'], Math.floor(57_500 / 350));
  });
});

describe('quickstart workflows', () => {
  it('cost 3.5, 4.5, 6, 6 and 7 USD at the default prices; the first two are self-serve', () => {
    const q = buildQuickstart(ctx);
    assert.deepEqual(
      q.workflows.map((w) => [w.estimated_default_cost_usd, w.access]),
      [
        [3.5, 'self_serve'],
        [4.5, 'self_serve'],
        [6, 'enterprise'],
        [6, 'enterprise'],
        [7, 'enterprise'],
      ],
    );
    const pricier = buildQuickstart({ ...ctx, prices: meterPrices({ 'read.discovery_top': 500 }) });
    assert.equal(pricier.workflows[0]!.estimated_cost_usd, 5);
    assert.equal(pricier.workflows[0]!.estimated_default_cost_usd, 3.5);
  });
});

/**
 * The kind of domain error each way of raising one implies ('literal': the call's first argument),
 * and the code the helper answers when the call names none (libs/kernel Errors). HttpEdgeError
 * names its status itself.
 */
const OPENERS: Array<[RegExp, ErrorKind | 'literal' | 'status', string?]> = [
  [/new AppError\(/g, 'literal'],
  [/super\((?=\s*'[a-z_]+',\s*')/g, 'literal'],
  [/new HttpEdgeError\(/g, 'status'],
  [/Errors\.validation\(/g, 'invalid', 'VALIDATION_FAILED'],
  [/Errors\.badRequest\(/g, 'invalid'],
  [/Errors\.unauthenticated\(/g, 'unauthenticated'],
  [/Errors\.paymentRequired\(/g, 'payment_required'],
  [/Errors\.forbidden\(/g, 'forbidden'],
  [/Errors\.notFound\(/g, 'not_found', 'NOT_FOUND'],
  [/Errors\.conflict\(/g, 'conflict', 'CONFLICT'],
  [/Errors\.preconditionFailed\(/g, 'precondition_failed'],
  [/Errors\.payloadTooLarge\(/g, 'too_large', 'PAYLOAD_TOO_LARGE'],
  [/Errors\.rateLimited\(/g, 'rate_limited'],
  [/Errors\.upstreamFailed\(/g, 'upstream_failed'],
  [/Errors\.unavailable\(/g, 'unavailable', 'SERVICE_UNAVAILABLE'],
  [/\bunauthorized\(/g, 'unauthenticated'],
];

/** How HTTP answers a raised code: libs/http's error table for a domain error. */
interface Answer {
  status: number;
  error?: string;
}

/**
 * The libs the agent surface is built from: the agent libs and every lib below them that they import
 * (a code raised there can reach an /api/v1 answer: WEBHOOK_NOT_FOUND came from libs/webhooks).
 */
const AGENT_SURFACE_LIBS = [
  'agent-surface',
  'agent-workspace',
  'agent-ventures',
  'agent-billing',
  'agent-contract',
  'access',
  'webhooks',
  'http',
  'projections',
  'eventstore',
  'documents',
  'kernel',
];

/** Codes of those libs that only platform (/v1) routes can answer, each with the reason. */
const PLATFORM_ONLY_CODES: Record<string, string> = {
  OAUTH_TOKEN_CANNOT_CREATE_KEYS: 'the agent surface takes agent keys only, never an OAuth access token',
  DELIVERY_NOT_FOUND: 'redelivering one delivery is a /v1/webhooks route only',
  WEBHOOK_DISABLED: 'test events are a /v1/webhooks route only (workspace subscriptions have none)',
};

/** The argument text of the call whose "(" ends at `from`, skipping strings (rough, enough for our sources). */
function callArguments(text: string, from: number): string {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return text.slice(from, i);
  }
  return text.slice(from);
}

/** Codes raised in .ts sources under dir: the first UPPER_SNAKE string literal of each raising call. */
async function scan(dir: string, raised: Map<string, Answer>): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await scan(path, raised);
    else if (entry.name.endsWith('.ts') && !entry.name.includes('.spec.')) {
      const text = await readFile(path, 'utf8');
      for (const [re, kind, byDefault] of OPENERS) {
        for (const m of text.matchAll(re)) {
          const args = callArguments(text, m.index + m[0].length);
          const code = /'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/.exec(args)?.[1] ?? byDefault;
          if (!code) continue;
          if (kind === 'status') {
            raised.set(code, { status: Number(/^\s*(\d{3})/.exec(args)?.[1]) });
            continue;
          }
          const named = kind === 'literal' ? (/^\s*'([a-z_]+)'/.exec(args)?.[1] as ErrorKind) : kind;
          const answer = httpErrorOf(new AppError(named, code, ''));
          raised.set(code, { status: answer.status, error: answer.error });
        }
      }
    }
  }
}

describe('error catalogue', () => {
  it('has one entry per code, each with a status and meaning', () => {
    const codes = AGENT_ERRORS.map((e) => e.code);
    assert.equal(new Set(codes).size, codes.length);
    for (const e of AGENT_ERRORS) {
      assert.match(e.code, /^[A-Z][A-Z0-9_]+$/);
      assert.ok(e.status >= 400 && e.status < 600 && e.meaning && e.action);
    }
  });

  it('documents every code the agent surface can answer: raised in the agent libs or a lib they are built from', async () => {
    // Found in the sources (the compiled tree sits next to them: dist/test/agent-data → repo root
    // is three levels up); a call that names no code answers its helper's default.
    const root = join(new URL('.', import.meta.url).pathname, '../../..');
    const raised = new Map<string, Answer>();
    for (const lib of AGENT_SURFACE_LIBS) await scan(join(root, `libs/${lib}/src`), raised);
    assert.ok(raised.size > 5, 'the scan found the raised codes');
    const missing = [...raised.keys()].filter(
      (code) => !AGENT_ERRORS.some((e) => e.code === code) && !(code in PLATFORM_ONLY_CODES),
    );
    assert.deepEqual(
      missing,
      [],
      'answered on the agent surface but missing from libs/agent-contract/src/catalog/error-catalog.data.yaml',
    );
    // The catalogue documents what libs/http's error table answers.
    for (const [code, answer] of raised) {
      const entry = AGENT_ERRORS.find((e) => e.code === code);
      if (!entry) continue;
      assert.equal(entry.status, answer.status, `status of ${code}`);
      if (answer.error !== undefined) assert.equal(entry.error, answer.error, `error word of ${code}`);
    }
    // The platform-only codes are raised in the shared libs, never by the agent surface itself.
    const ownCodes = new Map<string, Answer>();
    for (const lib of AGENT_SURFACE_LIBS.filter((l) => l.startsWith('agent-')))
      await scan(join(root, `libs/${lib}/src`), ownCodes);
    for (const code of Object.keys(PLATFORM_ONLY_CODES)) {
      assert.ok(raised.has(code), `${code} is still raised somewhere (else drop it from PLATFORM_ONLY_CODES)`);
      assert.ok(!ownCodes.has(code), `${code} is raised in an agent lib: catalogue it`);
    }
  });
});

describe('error catalogue and the error table', () => {
  it('every header a catalogued code lists is answered by libs/http for an error carrying what it reads', () => {
    const extra = {
      next_actions: [{ action: 'buy', method: 'GET', url: 'https://svc.example/checkout' }],
      balance_usd: 1,
      price_usd: 3.5,
      retry_after: 2,
      current_version: 3,
    };
    // A rate-limit window's counters travel as facts (the body does not show them).
    const facts = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1' };
    for (const entry of AGENT_ERRORS) {
      if (!entry.headers?.length) continue;
      const kind = (Object.keys(KIND_OF_STATUS) as string[]).includes(String(entry.status))
        ? KIND_OF_STATUS[entry.status as keyof typeof KIND_OF_STATUS]
        : undefined;
      if (!kind) continue;
      const answered = Object.keys(httpErrorOf(new AppError(kind, entry.code, '', extra, facts)).headers).map((h) =>
        h.toLowerCase(),
      );
      for (const header of entry.headers)
        assert.ok(
          answered.includes(header.toLowerCase()),
          `${entry.code} lists ${header}; the table answers ${answered.join(', ') || 'none'}`,
        );
    }
  });
});

describe('publicBaseUrl', () => {
  it('prefers SVC_PUBLIC_URL, else an allowed request host and protocol, and never trusts a host with a path', () => {
    assert.equal(
      publicBaseUrl({ protocol: 'http', host: 'x:1' }, { publicUrl: 'https://api.example.com' }),
      'https://api.example.com',
    );
    // A host is used only when allowed (SVC_ALLOWED_HOSTS; default loopback and the listening address).
    assert.equal(
      publicBaseUrl({ protocol: 'https', host: 'svc.example:8443' }, { allowedHosts: ['svc.example'] }),
      'https://svc.example:8443',
    );
    assert.equal(
      publicBaseUrl({ protocol: 'https', host: 'svc.example:8443' }, { port: 3000 }),
      'http://localhost:3000',
    );
    assert.equal(
      publicBaseUrl({ protocol: 'https', host: 'EVIL.example' }, { allowedHosts: ['localhost'], port: 3000 }),
      'http://localhost:3000',
    );
    assert.equal(publicBaseUrl({ headers: { host: '[::1]:3000' } }, {}), 'http://[::1]:3000');
    assert.equal(publicBaseUrl({ headers: { host: '127.0.0.1:3000' } }, {}), 'http://127.0.0.1:3000');
    assert.equal(publicBaseUrl({ protocol: 'http', host: 'evil.example/phish?' }, {}), 'http://localhost');
    assert.equal(publicBaseUrl(undefined, {}), 'http://localhost');
  });
});
