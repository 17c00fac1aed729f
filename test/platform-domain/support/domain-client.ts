import assert from 'node:assert/strict';
import type { INestApplicationContext } from '@nestjs/common';
import { bearer, createAccount, createKey } from '../../platform/support/platform-fixtures.js';

export type Body = Record<string, any>;
export interface Answer {
  status: number;
  body: Body;
  text: string;
  headers: Headers;
}
export type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

/** A JSON client for one API and key. */
export function client(baseUrl: string, key: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...bearer(key), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: Body;
    try {
      parsed = text ? (JSON.parse(text) as Body) : {};
    } catch {
      parsed = {};
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
}

/**
 * An account with generous rate limits (enterprise; tests make many calls, often under a frozen
 * FakeClock, i.e. in one window) and clients for keys with the scopes asked for.
 */
export async function domainAccount<K extends string>(
  app: INestApplicationContext,
  baseUrl: string,
  keys: Record<K, string[]>,
): Promise<{ accountId: string; keyIds: Record<K, string> } & Record<K, Call>> {
  const accountId = await createAccount(app, { plan: 'enterprise', perMinute: 1_000_000, perHour: 10_000_000 });
  const out: Record<string, unknown> = { accountId, keyIds: {} };
  for (const [name, scopes] of Object.entries(keys) as Array<[K, string[]]>) {
    const { key, keyId } = await createKey(app, accountId, { scopes, name });
    out[name] = client(baseUrl, key);
    (out.keyIds as Record<string, string>)[name] = keyId;
  }
  return out as { accountId: string; keyIds: Record<K, string> } & Record<K, Call>;
}

/** Asserts a status (showing the body when it differs) and returns the body. */
export function expectStatus(answer: Answer, status: number, what = ''): Body {
  assert.equal(answer.status, status, `${what} → ${answer.status} ${answer.text}`);
  return answer.body;
}

/** Every item of a D6 list, following next_cursor. */
export async function listAll(call: Call, path: string): Promise<Body[]> {
  const out: Body[] = [];
  let cursor: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const page: Body = expectStatus(
      await call('GET', `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
      200,
      path,
    );
    out.push(...(page.data as Body[]));
    cursor = page.next_cursor as string | null;
  } while (cursor);
  return out;
}

export const pullRequest = { number: 42, title: 'Fix login redirect', url: 'https://github.com/acme/web/pull/42' };

export const vuln = (id: string, pkg = 'lodash', severity = 'high', fixed: string | null = '4.17.21') => ({
  vulnerability: { id, severity, package: pkg, version: '4.17.15', fixed_in: fixed },
  affected_files: ['package-lock.json'],
  recommendation: `Upgrade ${pkg}`,
});
