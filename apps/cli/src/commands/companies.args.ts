import { type CommandArgs, parseOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

const IMPORT_USAGE = `  companies import FILE [--format jsonl|csv] [--source NAME]
                                 import companies from JSON Lines or CSV (format from the
                                 extension .jsonl/.ndjson/.json/.csv unless given); a bad record
                                 is reported on stderr as "line N: reason" and skipped; prints
                                 the summary {read, imported, updated, unchanged, rejected, ...}
                                 as one JSON line, progress and a closing line on stderr; exits 1
                                 when records were rejected. Columns and fields: docs/scoring.md`;

const GENERATE_USAGE = `  companies generate [--count N] [--seed S] [--as-of YYYY-MM-DD] [--format jsonl|csv]
                                 print generated demo companies (default: the demo set, 5000)`;

export type CompaniesCliCommand =
  | { kind: 'companies-import'; file: string; format: 'jsonl' | 'csv'; source?: string }
  | { kind: 'companies-generate'; count: number; seed?: number; asOf?: string; format: 'jsonl' | 'csv' };

function format(value: string | undefined): 'jsonl' | 'csv' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'jsonl' && value !== 'csv')
    throw new UsageError(`--format must be jsonl or csv, got ${JSON.stringify(value)}`);
  return value;
}

/** The importer's rule (formatOf in #agent-ventures), here so bad usage answers without loading the app. */
function formatFromName(file: string): 'jsonl' | 'csv' | undefined {
  const ext = /\.[^./\\]+$/.exec(file.toLowerCase())?.[0];
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  if (ext === '.csv') return 'csv';
  return undefined;
}

function integer(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`${flag} expects an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}

export const companiesImport: CommandArgs<Extract<CompaniesCliCommand, { kind: 'companies-import' }>> = {
  name: 'companies import',
  usage: IMPORT_USAGE,
  parse(args) {
    const { values, positionals } = parseOptions(args, { format: { type: 'string' }, source: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('companies import takes one FILE');
    const fmt = format(values.format) ?? formatFromName(positionals[0]!);
    if (!fmt)
      throw new UsageError(
        `cannot tell the format of ${positionals[0]} from its extension: pass --format jsonl or --format csv`,
      );
    if (values.source !== undefined && values.source.trim() === '') throw new UsageError('--source expects a name');
    return {
      kind: 'companies-import',
      file: positionals[0]!,
      format: fmt,
      ...(values.source ? { source: values.source.trim() } : {}),
    };
  },
};

export const companiesGenerate: CommandArgs<Extract<CompaniesCliCommand, { kind: 'companies-generate' }>> = {
  name: 'companies generate',
  usage: GENERATE_USAGE,
  parse(args) {
    const { values, positionals } = parseOptions(args, {
      count: { type: 'string' },
      seed: { type: 'string' },
      'as-of': { type: 'string' },
      format: { type: 'string' },
    });
    if (positionals.length) throw new UsageError(`companies generate takes no arguments, got ${positionals.join(' ')}`);
    const asOf = values['as-of'];
    if (asOf !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`)))) {
      throw new UsageError(`--as-of expects a date YYYY-MM-DD, got ${JSON.stringify(asOf)}`);
    }
    return {
      kind: 'companies-generate',
      count: values.count === undefined ? 5000 : integer('--count', values.count, 1, 10_000_000),
      ...(values.seed !== undefined ? { seed: integer('--seed', values.seed, 0, 4_294_967_295) } : {}),
      ...(asOf ? { asOf } : {}),
      format: format(values.format) ?? 'jsonl',
    };
  },
};
