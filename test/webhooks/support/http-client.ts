import { bearer } from '../../platform/support/platform-fixtures.js';

export type Body = Record<string, any>;
export interface Answer {
  status: number;
  body: Body;
  text: string;
  headers: Headers;
}

/** A JSON client for one API and key. */
export function client(baseUrl: string, key: string) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
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
