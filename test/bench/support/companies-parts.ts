// What companies-server.ts does besides the api, apart so that a smoke run does it in the bench's
// process without loading the api (ADR 0097): one import of a file into a fresh store and the
// same file again, and the bodies bare Fastify answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkCompanyRecord,
  companyGrowth,
  CompanyImporter,
  companyIdFor,
  companySummary,
  demoCompanies,
  fileRecords,
  type ImportFormat,
  type ImportSummary,
  MODEL_VERSION,
  scoreCompany,
} from '#agent-ventures';
import { SqliteEventStore } from '#eventstore';
import { SystemClock } from '#kernel';
import { type BareRoute, billingBareRoutes } from './bare-server.js';

/** The day the generated companies' signals are as of. */
export const AS_OF = '2026-11-01';

/** Imports `file` into a fresh store, then again (every record unchanged): both summaries. */
export async function importTwice(
  file: string,
  format: ImportFormat,
): Promise<{ summary: ImportSummary; again: ImportSummary }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const events = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
  try {
    const importer = new CompanyImporter(events, new SystemClock());
    const summary = await importer.run(fileRecords(file, format), { source: 'bench' });
    const again = await importer.run(fileRecords(file, format), { source: 'bench' });
    return { summary, again };
  } finally {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bodies the api answers, built from the same demo data, as bare Fastify's routes. */
export function companiesBareRoutes(): BareRoute[] {
  const now = new Date().toISOString();
  const profiles = [...demoCompanies({ count: 10, asOf: AS_OF })].map((r) => {
    const check = checkCompanyRecord(r);
    if (!check.ok) throw new Error(check.reason);
    return check.profile;
  });
  const items = profiles.map((p, i) => ({
    rank: i + 1,
    score: scoreCompany(p, now).score,
    company: companySummary(companyIdFor(p.domain), p),
  }));
  const first = profiles[0]!;
  return [
    [
      'GET',
      '/api/v1/discovery/top',
      {
        version: 'v1',
        as_of: now,
        data: {
          model_version: MODEL_VERSION,
          filters: { sector: null, stage: null, country: null },
          data: items,
          has_more: true,
          next_cursor: 'eyJmIjoifHwiLCJyIjoxMCwiYyI6ImV5SnpJam9pYzJOdmNtVTZMVEVzYVdRNk1TSXNJblkiOlt9fQ',
        },
      },
    ],
    [
      'GET',
      '/api/v1/companies/:id',
      {
        version: 'v1',
        as_of: now,
        data: {
          id: companyIdFor(first.domain),
          ...first,
          growth: companyGrowth(first.signals),
          created_at: now,
          updated_at: now,
        },
      },
    ],
    // The metered no-op route of the billing tests.
    ...billingBareRoutes(),
  ];
}
