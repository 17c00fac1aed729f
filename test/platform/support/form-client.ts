import assert from 'node:assert/strict';

export interface PageResponse {
  status: number;
  headers: Headers;
  body: string;
  /** The `Set-Cookie` lines of this response, whole (attributes included). */
  setCookies: string[];
}

/**
 * A browser without the browser, for HTTP tests of the pages: keeps cookies (name=value only,
 * as a browser sends them), follows nothing by itself, and reads the CSRF token from a form.
 */
export class FormClient {
  readonly cookies = new Map<string, string>();

  /** `headers` go with every request (e.g. X-Forwarded-For: a browser at another address). */
  constructor(
    readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private sentHeaders(): Record<string, string> {
    if (this.cookies.size === 0) return { ...this.headers };
    return { ...this.headers, cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  private async keep(res: Response): Promise<PageResponse> {
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
    return { status: res.status, headers: res.headers, body: await res.text(), setCookies };
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.keep(
      await fetch(`${this.baseUrl}${path}`, { redirect: 'manual', headers: { ...this.sentHeaders(), ...headers } }),
    );
  }

  async post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<PageResponse> {
    return this.keep(
      await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.sentHeaders(), ...headers },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  }

  /** Opens the sign-in page and signs in; returns the answer to the form. */
  async signIn(email: string, password: string, next?: string): Promise<PageResponse> {
    const page = await this.get(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
    assert.equal(page.status, 200, page.body);
    return this.post('/login', { _csrf: csrfToken(page.body), email, password, ...(next ? { next } : {}) });
  }
}

/** The CSRF token of the (first) form on a page. */
export function csrfToken(html: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(token, 'the page has a form with a CSRF token');
  return token;
}
