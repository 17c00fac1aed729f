// Child process of test/bench/workspace.bench.ts, so the load generator (the parent) and the
// server do not share a process:
//   node workspace-server.js app EVENTS COMPANIES  the real API (embedded stores, durable
//                                                  charges) with two tenants, each funded by
//                                                  operator grants: the reader, whose event stream
//                                                  holds EVENTS events (appended to the store
//                                                  directly, in batches), and the writer, with
//                                                  COMPANIES workspace companies (added over HTTP)
//   node workspace-server.js bare FILE             bare Fastify answering the bodies in FILE
//                                                  (JSON {events, memo}: a page of the stream and
//                                                  a memo answer, as the app sent them)
// Prints one JSON line when ready (app: {url, reader, writer, companyIds, events, seedMs,
// catchUpMs}; bare: {url}) and exits on SIGTERM/SIGINT.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { CommandBus } from '@nestjs/cqrs';
import Fastify from 'fastify';
import { CreateTenantCommand, type CreatedTenant } from '#agent-workspace';
import { GrantCreditsCommand } from '#agent-billing';
import { EVENT_STORE, type EventStore, type NewEvent } from '#eventstore';
import { ProjectionRunner } from '#projections';
import {
  followUpStream,
  memoStream,
  workspaceCompanyId,
  workspaceCompanyStream,
  type WorkspaceEvent,
} from '../../../libs/agent-workspace/src/workspace.events.js';
import { startTestApi } from '../../api/support/test-api.js';
import { BENCH_LIMITS, failed, isMain, listenLocal, ready, setting } from './bench-kit.js';

/** Events per append when seeding: one SQLite transaction each. */
const BATCH = 1000;
/** Companies the seeded events are spread over (their company-added events count in EVENTS). */
const SEED_COMPANIES = 100;
/** Operator grants per tenant; one is at most 1,000,000 USD (MAX_GRANT_CENTS). */
const GRANTS = setting('BENCH_GRANTS', 2, 1);

const EVENTS_PATH = '/api/v1/workspace/events';
const MEMO_PATH = '/api/v1/workspace/companies/:id/memo';

async function bare(file: string): Promise<void> {
  const bodies = JSON.parse(readFileSync(file, 'utf8')) as { events: unknown; memo: unknown };
  const app = Fastify({ logger: false });
  app.get(EVENTS_PATH, async () => bodies.events);
  app.patch(MEMO_PATH, async () => bodies.memo);
  ready({ url: await listenLocal(app) }, () => app.close());
}

/**
 * The reader tenant's stream, as stored events: SEED_COMPANIES companies added, then batches of
 * follow-up upserts and memo versions over them (the two most frequent writes of a workspace),
 * `count` events in all, each batch one append to one stream.
 */
async function seed(events: EventStore, tenantId: string, count: number): Promise<void> {
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const companies = Array.from({ length: Math.min(SEED_COMPANIES, count) }, (_, i) => {
    const domain = `seed-${i}.example`;
    return { id: workspaceCompanyId(tenantId, domain), domain, name: `Seed Company ${i}` };
  });
  await Promise.all(
    companies.map((c, i) => {
      const added: WorkspaceEvent = {
        type: 'WorkspaceCompanyAdded',
        data: {
          tenant_id: tenantId,
          company_id: c.id,
          source_company_id: null,
          name: c.name,
          domain: c.domain,
          stage: 'seed',
          owner: 'bench',
          snapshot: { profile: null, score: null },
          added_by: 'key_bench',
          added_at: at(i),
        },
      };
      return events.append(workspaceCompanyStream(tenantId, c.id), [added as NewEvent], 'no_stream');
    }),
  );
  const memoVersions = new Map<string, number>();
  let written = companies.length;
  for (let batch = 0; written < count; batch++) {
    const company = companies[batch % companies.length]!;
    const size = Math.min(BATCH, count - written);
    const base = written;
    let stream: string;
    let list: WorkspaceEvent[];
    if (batch % 2 === 0) {
      const key = `call-${batch}`;
      stream = followUpStream(tenantId, company.id, key);
      list = Array.from({ length: size }, (_, i) => ({
        type: 'WorkspaceFollowUpUpserted',
        data: {
          tenant_id: tenantId,
          company_id: company.id,
          key,
          title: `Call the founders of ${company.name} about the next round (${i})`,
          due_at: at(base + i + 10_080),
          assignee: i % 3 === 0 ? null : 'ana',
          status: i === size - 1 ? 'done' : 'open',
          created: i === 0,
          updated_by: 'key_bench',
          updated_at: at(base + i),
        },
      }));
    } else {
      stream = memoStream(tenantId, company.id);
      const from = memoVersions.get(company.id) ?? 0;
      memoVersions.set(company.id, from + size);
      list = Array.from({ length: size }, (_, i) => ({
        type: 'WorkspaceMemoUpdated',
        data: {
          tenant_id: tenantId,
          company_id: company.id,
          version: from + i + 1,
          body: `# ${company.name}\n\nThesis v${from + i + 1}: strong team, early revenue, a market that grows.`,
          updated_by: 'key_bench',
          updated_at: at(base + i),
        },
      }));
    }
    await events.append(stream, list as NewEvent[]);
    written += size;
  }
}

async function fundedTenant(commands: CommandBus, name: string): Promise<CreatedTenant> {
  const tenant: CreatedTenant = await commands.execute(new CreateTenantCommand(name));
  for (let i = 0; i < GRANTS; i++)
    await commands.execute(
      new GrantCreditsCommand({ keyId: tenant.key.id, creditsCents: 100_000_000, reference: `BENCH-${i + 1}` }),
    );
  return tenant;
}

async function app(eventCount: number, companyCount: number): Promise<void> {
  const api = await startTestApi({
    checkOpenApi: false,
    env: {
      ...BENCH_LIMITS,
      LOG_LEVEL: 'silent',
      SVC_BOOTSTRAP: 'false',
      SVC_DEMO_DATA: 'false',
    },
  });
  const commands = api.app.get(CommandBus);
  const events = api.app.get<EventStore>(EVENT_STORE);
  const reader = await fundedTenant(commands, 'Bench Reader Capital');
  const writer = await fundedTenant(commands, 'Bench Writer Ventures');

  const seedStarted = performance.now();
  await seed(events, reader.tenant_id, eventCount);
  const seedMs = performance.now() - seedStarted;
  const caughtUp = performance.now();
  await api.app.get(ProjectionRunner).waitFor(await events.headPosition(), { timeoutMs: 600_000 });
  const catchUpMs = performance.now() - caughtUp;

  const companyIds: string[] = [];
  const add = async (i: number) => {
    const res = await fetch(`${api.url}/api/v1/workspace/companies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': writer.key.api_key },
      body: JSON.stringify({ name: `Memo Company ${i}`, domain: `memo-${i}.example` }),
    });
    if (res.status !== 201) throw new Error(`adding a company: ${res.status} ${await res.text()}`);
    companyIds.push(((await res.json()) as { data: { id: string } }).data.id);
  };
  for (let i = 0; i < companyCount; i += 20)
    await Promise.all(Array.from({ length: Math.min(20, companyCount - i) }, (_, j) => add(i + j)));

  ready(
    {
      url: api.url,
      reader: reader.key.api_key,
      writer: writer.key.api_key,
      companyIds,
      events: eventCount,
      seedMs,
      catchUpMs,
    },
    () => api.close(),
  );
}

/** The server `args` name (see the top of this file); a smoke run serves it in the bench's process. */
export function serve([mode, a, b]: string[]): Promise<void> {
  return mode === 'bare' ? bare(a!) : app(Number(a ?? 100_000), Number(b ?? 200));
}

if (isMain(import.meta.url)) serve(process.argv.slice(2)).catch(failed);
