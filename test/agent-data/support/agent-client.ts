import assert from 'node:assert/strict';

/** Small helpers for the agent-surface HTTP tests. */
export function withKey(key: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'x-api-key': key } };
}

export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export interface Issued {
  account_id: string;
  key: { id: string; api_key: string };
  starter_checkout: { url: string; session_id: string; pack_id: string };
}

export async function pay(
  baseUrl: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Issued> {
  const res = await fetch(`${baseUrl}/api/v1/agents/pay`, postJson(body, headers));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as Issued;
}

/** Opens the sandbox checkout page, finds its Pay form and submits it like a browser. */
export async function payInSandbox(checkoutUrl: string): Promise<Response> {
  const page = await fetch(checkoutUrl);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action, 'the checkout page has a Pay form');
  const target = new URL(action.replace(/&amp;/g, '&'), checkoutUrl);
  return fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
}

export async function status(baseUrl: string, key: string): Promise<Record<string, any>> {
  const res = await fetch(`${baseUrl}/api/v1/agents/status`, withKey(key));
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { data: Record<string, any> }).data;
}
