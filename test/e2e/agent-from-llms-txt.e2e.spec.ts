import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
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

/**
 * An agent with no prior knowledge of this service (issue 15): it knows the site's address, reads
 * /llms.txt, and from then on uses only what documents and answers give it (links, next_actions).
 * It must reach its first paid answer in at most 4 calls plus the payment.
 */
describe('an agent that starts from /llms.txt reaches its first paid answer in at most 4 calls plus the payment', () => {
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
});
