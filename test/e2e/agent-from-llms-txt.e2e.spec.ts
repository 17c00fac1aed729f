import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CheckedFetch } from './support/checked-fetch.js';
import { API_MAIN, LiveProcess } from './support/processes.js';

type Json = Record<string, any>;

interface Link {
  section: string;
  name: string;
  url: string;
  note: string;
}

/** The links of an llms.txt (`- [name](url): note` under `## Section`), as any agent reads them. */
function parseLlmsTxt(text: string): Link[] {
  const links: Link[] = [];
  let section = '';
  for (const line of text.split('\n')) {
    const heading = /^##\s+(.+)$/.exec(line);
    if (heading) section = heading[1]!.trim();
    const link = /^-\s+\[([^\]]+)\]\(([^)]+)\)(?::\s*(.*))?$/.exec(line);
    if (link) links.push({ section, name: link[1]!, url: link[2]!, note: link[3] ?? '' });
  }
  return links;
}

/** An HTTP method a link declares: in its name (`GET /api/...`) or at the start of its note (`POST: ...`). */
function methodOf(link: Link): string {
  return (
    (/^(GET|POST|PUT|PATCH|DELETE)\b/.exec(link.name) ?? /^(GET|POST|PUT|PATCH|DELETE)\b/.exec(link.note))?.[1] ?? 'GET'
  );
}

function parseJson(text: string): Json | null {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return null;
  }
}

/** Submits the hosted checkout page's form, as a person (or a browser-driving agent) would. */
async function payOnCheckoutPage(fetch: CheckedFetch['fetch'], url: string): Promise<void> {
  const page = await fetch(url);
  const html = await page.text();
  const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(html)?.[1];
  assert.ok(action, 'the checkout page has a form to pay');
  const paid = await fetch(new URL(action.replace(/&amp;/g, '&'), url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  assert.ok(paid.status < 400, `payment answered ${paid.status}`);
}

/** A tool as an agent registers it from a published document: its name and argument schema. */
interface RegisteredTool {
  name: string;
  auth: string;
  price_usd: number | null;
  input_schema: { properties?: Record<string, { type?: string }>; required?: string[] };
}

/**
 * An agent with no prior knowledge of this service: it knows the site's
 * address, reads /llms.txt, and from then on uses only what documents and answers give it (links,
 * next_actions, the published tool schemas). By REST it must reach its first paid answer in at
 * most 4 calls plus the payment; by MCP it registers the tools the agent feed publishes and calls
 * them with the argument names published there.
 */
describe('an agent that starts from /llms.txt reaches a paid answer, by REST and by MCP', () => {
  let dataDir: string;
  let api: LiveProcess;
  let site: string;
  // Every request checked against the served OpenAPI document (ADR 0079).
  let checked: CheckedFetch;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-llms-agent-'));
    api = LiveProcess.start(API_MAIN, [], {
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_DEMO_DATA: 'true',
      SVC_BOOTSTRAP: 'false',
      LOG_LEVEL: 'info',
    });
    const line = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
    site = /listening on (http:\/\/[^\s"]+)/.exec(line)![1]!;
    checked = new CheckedFetch(site);
  });
  after(async () => {
    await api?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    checked?.assertAgreed();
  });

  it('follows llms.txt → get a key → pay → first paid call', async () => {
    const calls: string[] = [];
    const request = async (method: string, url: string, key?: string, body?: unknown) => {
      calls.push(`${method} ${new URL(url).pathname}`);
      const res = await checked.fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...(key ? { 'x-api-key': key } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, text, json: parseJson(text) };
    };

    // 1. The one address the agent knows.
    const llms = await request('GET', `${site}/llms.txt`);
    assert.equal(llms.status, 200);
    const links = parseLlmsTxt(llms.text);
    assert.ok(links.length > 5, 'llms.txt links the service');

    // 2. The first link of the first section that creates something and mentions a key.
    const first = links[0]!.section;
    const getKey = links.find((l) => l.section === first && methodOf(l) === 'POST' && /\bkey\b/i.test(l.note));
    assert.ok(getKey, 'llms.txt says how to get a key');
    const issued = await request('POST', getKey.url, undefined, {});
    assert.equal(issued.status, 201, issued.text);
    const key = issued.json!.key.api_key as string;
    const checkout =
      (issued.json!.next_actions as Json[] | undefined)?.find((a) => /checkout/i.test(a.action))?.url ??
      issued.json!.starter_checkout?.url;
    assert.ok(key && checkout, 'the answer gives a key and where to pay');

    // The payment (not counted: a person or a payment step, outside the API).
    await payOnCheckoutPage(checked.fetch, checkout);

    // 3. The first paid data link that needs no id.
    const data = links.find(
      (l) => /USD per successful call/.test(l.note) && !l.url.includes('{') && methodOf(l) === 'GET',
    );
    assert.ok(data, 'llms.txt lists a paid call');
    let answer = await request('GET', data.url, key);
    // 4. If it is not paid yet (credits on their way), do what the answer says, once.
    if (answer.status !== 200 && Array.isArray(answer.json?.next_actions)) {
      const next = (answer.json!.next_actions as Json[]).find(
        (a) => a.method === 'GET' && /status|balance/.test(a.action),
      );
      if (next) await request('GET', next.url, key);
      answer = await request('GET', data.url, key);
    }
    assert.equal(answer.status, 200, answer.text);
    assert.ok(Array.isArray(answer.json!.data.data) && answer.json!.data.data.length > 0, 'a paid answer with data');
    assert.ok(calls.length <= 4, `calls: ${calls.join(', ')}`);
  });

  it('follows llms.txt → the agent feed → registers its MCP tools → key by svc.signup → pay → paid tool calls', async () => {
    const links = parseLlmsTxt(await (await fetch(`${site}/llms.txt`)).text());
    // The feed: the JSON document llms.txt says carries the MCP tools.
    const feedLink = links.find((l) => /\bMCP tools\b/.test(l.note) && methodOf(l) === 'GET');
    assert.ok(feedLink, 'llms.txt links a document with the MCP tools');
    const feed = (await (await fetch(feedLink.url)).json()) as Json;
    const endpoint = feed.mcp.endpoint as string;
    const registry = new Map((feed.mcp.tools as RegisteredTool[]).map((t) => [t.name, t]));
    assert.ok(registry.size > 0 && endpoint.startsWith(site), 'the feed gives the MCP endpoint and its tools');

    const clients: Client[] = [];
    const connect = async (key?: string) => {
      const client = new Client({ name: 'llms-txt-agent', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(endpoint), {
          requestInit: { headers: key ? { 'x-api-key': key } : {} },
        }),
      );
      clients.push(client);
      return client;
    };
    /** Arguments named as the registered schema names them; `values` by the agent's own meaning. */
    const argumentsFor = (tool: RegisteredTool, values: Record<string, unknown>) => {
      const properties = tool.input_schema.properties ?? {};
      const args = Object.fromEntries(Object.entries(values).filter(([name]) => name in properties));
      for (const name of tool.input_schema.required ?? []) assert.ok(name in args, `${tool.name} needs ${name}`);
      return args;
    };
    const call = async (client: Client, tool: RegisteredTool, args: Record<string, unknown>) =>
      (await client.callTool({ name: tool.name, arguments: args })) as {
        isError?: boolean;
        structuredContent: Json;
      };

    try {
      // A key from the tool that needs none, then the payment on the checkout page it names.
      const signup = [...registry.values()].find((t) => t.auth === 'none');
      assert.ok(signup, 'a tool gives a key');
      const issued = await call(
        await connect(),
        signup,
        argumentsFor(signup, { agent_name: 'llms-txt-agent', use_case: 'e2e journey' }),
      );
      assert.equal(issued.isError, undefined, JSON.stringify(issued.structuredContent));
      const key = issued.structuredContent.key.api_key as string;
      await payOnCheckoutPage(checked.fetch, issued.structuredContent.starter_checkout.url as string);

      const client = await connect(key);
      // The paid list that needs no id, with the page size the schema names.
      const paid = [...registry.values()].filter((t) => t.auth === 'key' && (t.price_usd ?? 0) > 0);
      const list = paid.find(
        (t) => !(t.input_schema.required ?? []).length && 'limit' in (t.input_schema.properties ?? {}),
      );
      assert.ok(list, 'a paid tool lists companies');
      const listArgs = argumentsFor(list, { limit: 3 });
      let top = await call(client, list, listArgs);
      // Credits may still be on their way: a 402 is free, ask again until they arrive.
      const deadline = Date.now() + 10_000;
      while (top.isError && top.structuredContent.status === 402 && Date.now() < deadline)
        top = await call(client, list, listArgs);
      assert.equal(top.isError, undefined, JSON.stringify(top.structuredContent));
      const companies = top.structuredContent.data as Json[];
      assert.equal(companies.length, 3);

      // A paid tool that takes one company, called with the one argument its published schema requires.
      const one = paid.find((t) => t !== list && (t.input_schema.required ?? []).length === 1 && /score/.test(t.name));
      assert.ok(one, 'a paid tool scores one company');
      const [idArgument] = one.input_schema.required!;
      const scored = await call(client, one, { [idArgument!]: companies[0]!.company.id });
      assert.equal(scored.isError, undefined, JSON.stringify(scored.structuredContent));
      assert.equal(typeof scored.structuredContent.score, 'number');
    } finally {
      for (const c of clients) await c.close().catch(() => undefined);
    }
  });
});
