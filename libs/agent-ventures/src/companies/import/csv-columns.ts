/**
 * The CSV layout of a company import (docs/scoring.md, "CSV columns"): a header row naming the
 * columns (any order, case-insensitive; `name` and `domain` required), one company per row.
 * Empty cells are "unknown". Lists are separated by `;`. A time series is `DATE:VALUE` pairs
 * separated by `;` (`2025-01-01:12;2025-07-01:19`). Each row becomes the JSON Lines record shape
 * and is validated by the same schema.
 */

export const CSV_COLUMNS = [
  'name',
  'domain',
  'description',
  'sectors',
  'tags',
  'country',
  'city',
  'founded_year',
  'stage',
  'headcount',
  'total_funding_usd',
  'last_round_type',
  'last_round_amount_usd',
  'last_round_date',
  'investors',
  'headcount_series',
  'web_traffic_series',
  'funding_series',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

const REQUIRED: CsvColumn[] = ['name', 'domain'];
const INTEGER_COLUMNS = new Set<CsvColumn>(['founded_year', 'headcount', 'total_funding_usd', 'last_round_amount_usd']);
const LIST_COLUMNS = new Set<CsvColumn>(['sectors', 'tags', 'investors']);
const SERIES: Partial<Record<CsvColumn, 'headcount' | 'web_traffic' | 'funding'>> = {
  headcount_series: 'headcount',
  web_traffic_series: 'web_traffic',
  funding_series: 'funding',
};

export class CsvHeaderError extends Error {
  constructor(message: string) {
    super(`line 1: ${message}`);
    this.name = 'CsvHeaderError';
  }
}

/** The column of each position; throws CsvHeaderError for unknown, repeated or missing columns. */
export function csvHeader(fields: string[]): CsvColumn[] {
  const columns: CsvColumn[] = [];
  for (const raw of fields) {
    const name = raw
      .replace(/^\uFEFF/, '')
      .trim()
      .toLowerCase();
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) {
      throw new CsvHeaderError(`unknown column ${JSON.stringify(raw)} (columns: ${CSV_COLUMNS.join(', ')})`);
    }
    if (columns.includes(name as CsvColumn)) throw new CsvHeaderError(`column ${name} appears twice`);
    columns.push(name as CsvColumn);
  }
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length) throw new CsvHeaderError(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return columns;
}

const list = (cell: string) =>
  cell
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

function number(cell: string): number | string {
  const t = cell.trim();
  return /^-?\d+(?:\.\d+)?$/.test(t) ? Number(t) : t;
}

/** A CSV row as a JSON Lines record, or the reason it cannot be one. */
export function csvRowToRecord(
  columns: CsvColumn[],
  fields: string[],
): { ok: true; record: Record<string, unknown> } | { ok: false; reason: string } {
  if (fields.length !== columns.length)
    return { ok: false, reason: `expected ${columns.length} fields, got ${fields.length}` };
  const record: Record<string, unknown> = {};
  const headquarters: Record<string, unknown> = {};
  const lastRound: Record<string, unknown> = {};
  const signals: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i]!;
    const cell = fields[i]!;
    if (cell.trim() === '') continue;
    const series = SERIES[column];
    if (series) {
      const points: Array<{ date: string; value: number | string }> = [];
      for (const pair of list(cell)) {
        const at = pair.lastIndexOf(':');
        if (at <= 0)
          return { ok: false, reason: `${column}: expected DATE:VALUE pairs separated by ";" (e.g. 2025-01-01:12)` };
        points.push({ date: pair.slice(0, at).trim(), value: number(pair.slice(at + 1)) });
      }
      signals[series] = points;
    } else if (LIST_COLUMNS.has(column)) record[column] = list(cell);
    else if (column === 'country' || column === 'city') headquarters[column] = cell;
    else if (column === 'last_round_type') lastRound.type = cell;
    else if (column === 'last_round_amount_usd') lastRound.amount_usd = number(cell);
    else if (column === 'last_round_date') lastRound.date = cell.trim();
    else if (INTEGER_COLUMNS.has(column)) record[column] = number(cell);
    else record[column] = cell;
  }
  if (Object.keys(headquarters).length) record.headquarters = headquarters;
  if (Object.keys(lastRound).length) record.last_round = lastRound;
  if (Object.keys(signals).length) record.signals = signals;
  return { ok: true, record };
}

const csvCell = (value: string) =>
  /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value;

/** The CSV header line (all columns). */
export function csvHeaderLine(): string {
  return CSV_COLUMNS.join(',');
}

/** A JSON Lines record as a CSV line with every column (the inverse of csvRowToRecord). */
export function recordToCsvLine(record: {
  name: string;
  domain: string;
  description?: string | null;
  sectors?: string[];
  tags?: string[];
  headquarters?: { country?: string | null; city?: string | null } | null;
  founded_year?: number | null;
  stage?: string | null;
  headcount?: number | null;
  total_funding_usd?: number | null;
  last_round?: { type: string; amount_usd?: number | null; date: string } | null;
  investors?: string[];
  signals?: Partial<Record<'headcount' | 'web_traffic' | 'funding', Array<{ date: string; value: number }>>> | null;
}): string {
  const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const series = (points?: Array<{ date: string; value: number }>) =>
    (points ?? []).map((p) => `${p.date}:${p.value}`).join(';');
  const cells: Record<CsvColumn, string> = {
    name: record.name,
    domain: record.domain,
    description: s(record.description),
    sectors: (record.sectors ?? []).join(';'),
    tags: (record.tags ?? []).join(';'),
    country: s(record.headquarters?.country),
    city: s(record.headquarters?.city),
    founded_year: s(record.founded_year),
    stage: s(record.stage),
    headcount: s(record.headcount),
    total_funding_usd: s(record.total_funding_usd),
    last_round_type: s(record.last_round?.type),
    last_round_amount_usd: s(record.last_round?.amount_usd),
    last_round_date: s(record.last_round?.date),
    investors: (record.investors ?? []).join(';'),
    headcount_series: series(record.signals?.headcount),
    web_traffic_series: series(record.signals?.web_traffic),
    funding_series: series(record.signals?.funding),
  };
  return CSV_COLUMNS.map((c) => csvCell(cells[c])).join(',');
}
