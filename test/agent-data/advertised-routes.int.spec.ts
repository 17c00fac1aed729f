import assert from 'node:assert/strict';
import { checkCompanyRecord, companyIdFor, CompanyImporter, demoCompanies, valueRecords } from '#agent-ventures';
import { INFORMATION_DOCUMENTS } from '#agent-surface';
import { after, before, describe, it } from 'node:test';
import { AGENT_ENDPOINTS } from '#agent-contract';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionRunner } from '#projections';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, payInSandbox, postJson, withKey } from './support/agent-client.js';

/** Every document of the agent surface that names routes (paths under /api/v1/agents). */
const DOCUMENTS = [
  // The fixed documents, from the list their routes are served by: a new one is covered at once.
  ...INFORMATION_DOCUMENTS,
  'quote',
  'quote?objective=enterprise',
  'recommend-tier?objective=operator_pilot',
  'status',
  'registry-pack',
  'registry-pack/openai',
  'registry-pack/mcp',
  'registry-pack/generic',
  'leads',
];

/** Answers that mean "no such route". */
const MISSING = new Set([404, 405]);

interface Advertised {
  /** Where in which document. */
  at: string;
  /** Absolute URL, or a path under the origin; may hold {placeholders}. */
  target: string;
}

const ABSOLUTE = /https?:\/\/[^\s"'<>]+/g;
const RELATIVE = /(?<![\w/.:])\/api\/v1\/[^\s"'<>]*/g;
const trimEnd = (s: string) => s.replace(/[.,;:)]+$/, '');

/**
 * The routes a document advertises as available: every URL of this service and every /api/v1
 * path in its strings, except inside objects marked `status: "planned"`, under `planned*` keys,
 * and strings that a sibling `planned*` field lists. `base_url` is a prefix, not a route.
 */
function advertised(
  value: unknown,
  origin: string,
  at: string,
  out: Advertised[] = [],
  skip: ReadonlySet<string> = new Set(),
): Advertised[] {
  if (typeof value === 'string') {
    if (skip.has(value)) return out;
    let rest = value;
    for (const m of value.match(ABSOLUTE) ?? []) {
      const url = trimEnd(m);
      rest = rest.replace(m, ' ');
      if (url.startsWith(origin)) out.push({ at, target: url });
    }
    for (const m of rest.match(RELATIVE) ?? []) out.push({ at, target: trimEnd(m) });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => advertised(v, origin, `${at}[${i}]`, out, skip));
  } else if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.some(([k, v]) => k === 'status' && v === 'planned')) return out;
    const planned = new Set<string>();
    for (const [k, v] of entries) if (k.startsWith('planned')) collectStrings(v, planned);
    for (const [k, v] of entries)
      if (!k.startsWith('planned') && k !== 'base_url') advertised(v, origin, `${at}.${k}`, out, planned);
  }
  return out;
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) value.forEach((v) => collectStrings(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => collectStrings(v, into));
}

/** `/agents/keys/{id}` → a regular expression for concrete paths under /api/v1. */
const pathPattern = (path: string) => new RegExp(`^/api/v1${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);

describe('routes the agent documents advertise as available exist (real HTTP)', () => {
  let api: TestApi;
  let key: string;
  let spareKeyId: string;
  let companyId: string;
  let documents: Map<string, unknown>;

  before(async () => {
    api = await startTestApi();
    const records = [...demoCompanies({ count: 3, asOf: '2026-11-20' })];
    await api.app.get(CompanyImporter).run(valueRecords(records), { source: 'test' });
    const events = api.app.get<EventStore>(EVENT_STORE);
    await api.app.get(ProjectionRunner).waitFor(await events.headPosition(), { timeoutMs: 30_000 });
    const check = checkCompanyRecord(records[0]);
    assert.ok(check.ok);
    companyId = companyIdFor(check.profile.domain);

    const issued = await pay(api.url, { pack_id: 'pack_99' });
    assert.equal((await payInSandbox(issued.starter_checkout.url)).status, 303);
    key = issued.key.api_key;
    const spare = await fetch(`${api.url}/api/v1/agents/keys`, withKey(key, postJson({})));
    assert.equal(spare.status, 201, await spare.clone().text());
    spareKeyId = ((await spare.json()) as { key: { id: string } }).key.id;

    documents = new Map();
    for (const path of DOCUMENTS) {
      const res = await fetch(`${api.url}/api/v1/agents/${path}`);
      assert.equal(res.status, 200, path);
      documents.set(path, ((await res.json()) as { data: unknown }).data);
    }
  });
  after(async () => {
    await api?.close();
  });

  /** A concrete URL for a route: sample ids in place of the placeholders. */
  const concrete = (target: string): string => {
    const url = new URL(target, api.url);
    url.pathname = url.pathname
      .replace(/^\/api\/v1\/agents\/keys\/(\{id\}|%7Bid%7D)$/i, `/api/v1/agents/keys/${spareKeyId}`)
      .replace(/(\{id\}|%7Bid%7D)/gi, companyId)
      .replace(/(\{target\}|%7Btarget%7D)/gi, 'openai')
      .replace(/(\{key\}|%7Bkey%7D)/gi, 'sample-key');
    assert.doesNotMatch(decodeURIComponent(url.pathname), /[{}]/, `a placeholder without a sample value in ${target}`);
    return url.toString();
  };

  /** The methods of a path: those of the endpoint table rows it matches, else GET. */
  const methodsOf = (pathname: string): string[] => {
    const rows = AGENT_ENDPOINTS.filter((e) => pathPattern(e.path).test(pathname));
    return rows.length ? [...new Set(rows.map((e) => e.method))] : ['GET'];
  };

  const request = async (method: string, url: string): Promise<number> => {
    const init: RequestInit = method === 'POST' || method === 'PATCH' ? postJson({}) : {};
    const res = await fetch(url, withKey(key, { ...init, method, redirect: 'manual' }));
    await res.arrayBuffer();
    return res.status;
  };

  it('every route a document advertises as available answers something other than 404 or 405', async () => {
    const found: Advertised[] = [];
    for (const [path, data] of documents) advertised(data, api.url, path, found);
    assert.ok(found.length > 50, `the documents name routes (${found.length} found)`);

    const byRequest = new Map<string, string[]>();
    for (const a of found) {
      const url = concrete(a.target);
      // DELETE /agents/keys/{id} last: it revokes the spare key.
      for (const method of methodsOf(new URL(url).pathname)) {
        const k = `${method} ${url}`;
        byRequest.set(k, [...(byRequest.get(k) ?? []), a.at]);
      }
    }
    const failures: string[] = [];
    const ordered = [...byRequest.keys()].sort(
      (a, b) => Number(a.startsWith('DELETE ')) - Number(b.startsWith('DELETE ')),
    );
    for (const k of ordered) {
      const [method, url] = k.split(' ') as [string, string];
      const status = await request(method, url);
      if (MISSING.has(status))
        failures.push(`${k} → ${status} (advertised at ${byRequest.get(k)!.slice(0, 3).join(', ')})`);
    }
    assert.deepEqual(failures, []);
  });

  it('every row of the endpoint table and every MCP tool says whether it is available or planned', () => {
    const capabilities = documents.get('capabilities') as any;
    for (const op of capabilities.operations) assert.ok(['available', 'planned'].includes(op.status), op.name);
    assert.ok(['available', 'planned'].includes(capabilities.mcp.status));
    for (const tool of capabilities.mcp.tools) assert.ok(['available', 'planned'].includes(tool.status), tool.name);
    const manifest = documents.get('manifest') as any;
    for (const op of manifest.operations) assert.ok(['available', 'planned'].includes(op.status), op.name);
    assert.equal(manifest.mcp.status, capabilities.mcp.status);
  });

  it('every endpoint table row marked planned is not served yet (mark it available once it is)', async () => {
    const capabilities = documents.get('capabilities') as any;
    // None today (every row is served); the check stands for the next planned row.
    const planned = capabilities.operations.filter((op: any) => op.status === 'planned');
    for (const op of planned)
      assert.ok(
        MISSING.has(await request(op.method, concrete(op.url))),
        `${op.method} ${op.url} is served: mark it available`,
      );
  });
});
