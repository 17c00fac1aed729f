import { OpenApiExchangeValidator } from '../../api/support/openapi-exchanges.js';

/**
 * fetch for end-to-end tests against a started api process, checking every exchange against the
 * OpenAPI document that process serves (ADR 0079; in-process apps are checked by their own
 * hooks, test/api/support/test-api.ts). `problems` collects what disagrees; `assertAgreed`
 * fails with it (call it in `after`).
 */
export class CheckedFetch {
  readonly problems: string[] = [];
  private validator?: Promise<OpenApiExchangeValidator>;

  constructor(private readonly site: string) {}

  readonly fetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input, this.site);
    const response = await fetch(url, init);
    if (url.origin !== new URL(this.site).origin) return response;
    this.validator ??= fetch(`${this.site}/docs/api/openapi.v1.json`)
      .then((r) => r.json() as Promise<object>)
      .then((doc) => OpenApiExchangeValidator.for(doc));
    const validator = await this.validator;
    const method = (init.method ?? 'GET').toUpperCase();
    const requestContentType = new Headers(init.headers).get('content-type') ?? undefined;
    let requestBody: unknown;
    if (typeof init.body === 'string' && requestContentType?.includes('json')) requestBody = JSON.parse(init.body);
    const body = Buffer.from(await response.clone().arrayBuffer());
    this.problems.push(
      ...validator.check({
        method,
        path: `${url.pathname}${url.search}`,
        status: response.status,
        contentType: response.headers.get('content-type') ?? undefined,
        body,
        requestContentType,
        requestBody,
      }),
    );
    return response;
  };

  assertAgreed(): void {
    if (this.problems.length)
      throw new Error(
        `${this.problems.length} answers disagree with the OpenAPI document:\n${this.problems.join('\n')}`,
      );
  }
}
