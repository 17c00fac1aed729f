import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  type CompanyImporter,
  csvHeaderLine,
  demoCompanies,
  fileRecords,
  recordToCsvLine,
  type SourceRecord,
} from '#agent-ventures';
import type { CompaniesCliCommand } from './companies.args.js';

type Write = (line: string) => Promise<void>;

/** Seconds between two progress lines of a long import. */
const PROGRESS_EVERY_MS = 1000;

/** Records in the file (a first, parse-only pass: the total that progress lines count towards). */
async function countRecords(file: string, format: 'jsonl' | 'csv'): Promise<number> {
  let total = 0;
  for await (const batch of fileRecords(file, format)) total += batch.length;
  return total;
}

/**
 * `svc companies import FILE`: streams the file through the importer. Rejected records go to
 * stderr as `line N: reason` while the import goes on, with progress lines against the file's
 * total and a closing sentence; the summary is one JSON line on stdout. Returns the exit code:
 * 1 when records were rejected (they were skipped, the rest is imported).
 */
export async function importCompanies(
  importer: CompanyImporter,
  command: Extract<CompaniesCliCommand, { kind: 'companies-import' }>,
  out: Write,
  err: Write,
  signal: AbortSignal,
  now: () => number = () => performance.now(),
): Promise<number> {
  const format = command.format;
  try {
    const info = await stat(command.file);
    if (!info.isFile()) throw new Error('not a file');
  } catch (error) {
    throw new Error(`cannot read ${command.file}: ${(error as Error).message}`, { cause: error });
  }
  const total = await countRecords(command.file, format);
  await err(`svc companies import: ${total} records in ${command.file}`);
  let read = 0;
  let printedAt = now();
  async function* counted(): AsyncGenerator<SourceRecord[]> {
    for await (const batch of fileRecords(command.file, format)) {
      read += batch.length;
      if (now() - printedAt >= PROGRESS_EVERY_MS) {
        printedAt = now();
        await err(
          `svc companies import: ${read}/${total} records read (${Math.floor((read / Math.max(total, 1)) * 100)}%)`,
        );
      }
      yield batch;
    }
  }
  const pendingErrors: Promise<void>[] = [];
  const summary = await importer.run(counted(), {
    source: command.source ?? `file:${basename(command.file)}`,
    signal,
    onRejected: (r) => void pendingErrors.push(err(`line ${r.line}: ${r.reason}`)),
  });
  await Promise.all(pendingErrors);
  const perSecond = summary.ms > 0 ? Math.round((summary.read / summary.ms) * 1000) : summary.read;
  await out(
    JSON.stringify({
      file: command.file,
      format,
      ...summary,
      records_per_second: perSecond,
      ...(signal.aborted ? { interrupted: true } : {}),
    }),
  );
  await err(
    `svc companies import: ${signal.aborted ? 'interrupted after' : 'done,'} ${summary.read}/${total} records read: ` +
      `${summary.imported} imported, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.rejected} rejected`,
  );
  return summary.rejected > 0 || signal.aborted ? 1 : 0;
}

/** `svc companies generate`: the demo generator's records on stdout (JSON Lines or CSV). */
export async function generateCompanies(
  command: Extract<CompaniesCliCommand, { kind: 'companies-generate' }>,
  out: Write,
  today: Date,
): Promise<void> {
  const asOf = command.asOf ?? today.toISOString().slice(0, 10);
  if (command.format === 'csv') await out(csvHeaderLine());
  for (const record of demoCompanies({
    count: command.count,
    asOf,
    ...(command.seed !== undefined ? { seed: command.seed } : {}),
  })) {
    await out(
      command.format === 'csv'
        ? recordToCsvLine(record as Parameters<typeof recordToCsvLine>[0])
        : JSON.stringify(record),
    );
  }
}
