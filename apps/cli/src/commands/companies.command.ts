import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { type CompanyImporter, csvHeaderLine, demoCompanies, fileRecords, recordToCsvLine } from '#agent-data';
import type { CompaniesCliCommand } from './companies.args.js';

type Write = (line: string) => Promise<void>;

/**
 * `svc companies import FILE`: streams the file through the importer. Rejected records go to
 * stderr as `line N: reason` while the import goes on; the summary is one JSON line on stdout.
 */
export async function importCompanies(
  importer: CompanyImporter,
  command: Extract<CompaniesCliCommand, { kind: 'companies-import' }>,
  out: Write,
  err: Write,
  signal: AbortSignal,
): Promise<void> {
  const format = command.format;
  try {
    const info = await stat(command.file);
    if (!info.isFile()) throw new Error('not a file');
  } catch (error) {
    throw new Error(`cannot read ${command.file}: ${(error as Error).message}`, { cause: error });
  }
  const pendingErrors: Promise<void>[] = [];
  const summary = await importer.run(fileRecords(command.file, format), {
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
