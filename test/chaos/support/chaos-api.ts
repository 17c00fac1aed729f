import { CommandBus } from '@nestjs/cqrs';
import { FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { CreateTenantCommand } from '#agent-workspace';
import { CompanyImporter, demoCompanies, valueRecords } from '#agent-ventures';
import { GrantCreditsCommand } from '#agent-billing';
import { WebhookDispatchers } from '#webhooks';
import { startTestApi, type TestApi } from '../../api/support/test-api.js';
import { pay } from '../../agent-data/support/agent-client.js';
import { createAccountWithKey } from '../../platform/support/platform-fixtures.js';
import { HttpClient } from './http-client.js';
import type { Surface } from './openapi-operations.js';

/**
 * Limits raised so that 429s do not hide what the scenarios look for (a 429 still counts as a
 * rejection); webhooks may target loopback (the targets are closed ports: every push fails at
 * once and is recorded); the Stripe webhook gets a secret, so a bad signature is its 400 and
 * not the 503 of an unconfigured deployment.
 */
export const CHAOS_ENV: Record<string, string> = {
  SVC_AGENT_RATE_LIMIT_PER_MINUTE: '1000000000',
  SVC_SIGNUP_LIMIT_PER_HOUR: '1000000',
  SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '1000000',
  SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '100000000',
  SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
  SVC_WEBHOOK_TIMEOUT_MS: '1000',
  SVC_WEBHOOKS_PER_ACCOUNT: '10000',
  STRIPE_WEBHOOK_SECRET: 'whsec_chaos_0123456789abcdef',
};

/** A closed port on loopback: deliveries fail at once (ECONNREFUSED) and nothing leaves the machine. */
export const DEAD_WEBHOOK_URL = 'http://127.0.0.1:9/chaos';

/** An answer longer than this counts as a hang (a regular expression gone quadratic, say). */
export const SLOW_MS = 10_000;
const TIMEOUT_MS = 20_000;

export interface Principal {
  surface: Surface;
  /** The account (platform or agent) the key belongs to. */
  accountId: string;
  keyId: string;
  key: string;
}

export interface ChaosRequest {
  method: string;
  /** Path and query exactly as sent (already percent-encoded). */
  target: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface ChaosAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
  ms: number;
  /** Set when no HTTP answer came (connection reset, timeout). */
  failure?: string;
}

export interface ChaosApi {
  api: TestApi;
  store: EventStore;
  clock: FakeClock;
  head(): Promise<number>;
  /** `stream type` of the events after `position` (what a rejected request must not have appended). */
  appendedSince(position: number): Promise<string[]>;
  /** Lets background work caused by accepted requests finish: webhook pushes, until the head stops. */
  settle(): Promise<void>;
  send(request: ChaosRequest, as?: Principal): Promise<ChaosAnswer>;
  /** A platform account (Enterprise, limits far above what the scenarios send) with an admin key. */
  platformPrincipal(): Promise<Principal>;
  /** A self-serve agent key, funded by an operator grant. */
  agentPrincipal(): Promise<Principal>;
  /** A workspace tenant's key, funded by an operator grant. */
  tenantPrincipal(name: string): Promise<Principal>;
  close(): Promise<void>;
}

let grants = 0;

/**
 * Starts the API in-process under a frozen clock (no retry, expiry or sweep fires on its own).
 * `demoCompanies`: the first n of the product's demo companies (its generator and seed), imported
 * the way the demo data seeder imports them. A few hundred give every list several pages; the
 * seeder's 5,000 cost 3 s of CPU to import and project, a fifth of the bad-input sweep.
 */
export async function startChaosApi(options: { demoCompanies?: number } = {}): Promise<ChaosApi> {
  const clock = new FakeClock('2026-04-01T10:00:00.000Z');
  const api = await startTestApi({ clock, env: { ...CHAOS_ENV, SVC_DEMO_DATA: 'false' } });
  if (options.demoCompanies) {
    const asOf = clock.now().toISOString().slice(0, 10);
    const summary = await api.app
      .get(CompanyImporter)
      .run(valueRecords(demoCompanies({ count: options.demoCompanies, asOf })), { source: 'demo' });
    if (summary.imported !== options.demoCompanies)
      throw new Error(`demo companies: ${summary.imported} of ${options.demoCompanies} imported`);
  }
  const store = api.app.get<EventStore>(EVENT_STORE);
  const commands = api.app.get(CommandBus);
  const dispatchers = api.app.get(WebhookDispatchers);
  const client = new HttpClient(api.url);

  const grant = async (keyId: string) => {
    await commands.execute(
      new GrantCreditsCommand({ keyId, creditsCents: 1_000_000_00, reference: `CHAOS-${++grants}` }),
    );
  };

  const chaos: ChaosApi = {
    api,
    store,
    clock,
    head: () => store.headPosition(),
    async appendedSince(position) {
      const out: string[] = [];
      for await (const e of store.readAll({ after: position, maxCount: 20 })) out.push(`${e.stream} ${e.type}`);
      return out;
    },
    async settle() {
      for (let round = 0; round < 20; round++) {
        const before = await store.headPosition();
        await dispatchers.get('platform').drain({ timeoutMs: 15_000 });
        await dispatchers.get('workspace').drain({ timeoutMs: 15_000 });
        if ((await store.headPosition()) === before) return;
      }
      throw new Error('settle: the event store kept moving');
    },
    async send(request, as) {
      const headers: Record<string, string> = { ...(as ? authHeader(as) : {}), ...request.headers };
      const started = performance.now();
      try {
        const res = await client.send({ ...request, headers }, TIMEOUT_MS);
        let json: any = undefined;
        try {
          json = res.text ? JSON.parse(res.text) : undefined;
        } catch {
          json = undefined;
        }
        return { status: res.status, headers: res.headers, text: res.text, json, ms: performance.now() - started };
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        return {
          status: 0,
          headers: new Headers(),
          text: '',
          json: undefined,
          ms: performance.now() - started,
          failure: `${(error as Error).name}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
        };
      }
    },
    async platformPrincipal() {
      const created = await createAccountWithKey(api.app, {
        plan: 'enterprise',
        perMinute: 1_000_000,
        perHour: 10_000_000,
      });
      return { surface: 'platform', accountId: created.accountId, keyId: created.keyId, key: created.key };
    },
    async agentPrincipal() {
      const issued = await pay(api.url);
      await grant(issued.key.id);
      return { surface: 'agent', accountId: issued.account_id, keyId: issued.key.id, key: issued.key.api_key };
    },
    async tenantPrincipal(name) {
      const tenant = await commands.execute(new CreateTenantCommand(name));
      await grant(tenant.key.id);
      return { surface: 'workspace', accountId: tenant.account_id, keyId: tenant.key.id, key: tenant.key.api_key };
    },
    async close() {
      client.close();
      await api.close();
    },
  };
  return chaos;
}

/** The platform takes a bearer token; the agent surface its `x-api-key` header. */
export function authHeader(as: Principal): Record<string, string> {
  return as.surface === 'platform' ? { authorization: `Bearer ${as.key}` } : { 'x-api-key': as.key };
}

/** The id of a created resource, from a platform body or an agent envelope. */
export function idOf(answer: ChaosAnswer): string {
  const body = answer.json ?? {};
  const id = body.id ?? body.data?.id ?? body.key?.id ?? body.data?.key?.id;
  if (typeof id !== 'string') throw new Error(`no id in ${answer.status} ${answer.text.slice(0, 300)}`);
  return id;
}

/** JSON request helper for set-up calls (which must succeed). */
export async function must(
  chaos: ChaosApi,
  as: Principal,
  method: string,
  target: string,
  body?: unknown,
): Promise<ChaosAnswer> {
  const answer = await chaos.send(
    {
      method,
      target,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    },
    as,
  );
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`set-up ${method} ${target} → ${answer.status} ${answer.failure ?? answer.text.slice(0, 400)}`);
  await chaos.settle();
  return answer;
}
