/**
 * Import sources: a file (or any text stream) read in chunks, parsed into records with the line
 * each starts on. Batches of records come out per chunk read, so the importer keeps many appends
 * in flight while memory stays bounded by one chunk plus the longest record.
 */
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { CsvFormatError, CsvParser } from './csv-parser.js';
import { type CsvColumn, csvHeader, CsvHeaderError, csvRowToRecord } from './csv-columns.js';

/** A record read from a source: its value (not validated yet), or why it could not be read. */
export type SourceRecord = { line: number; value: unknown } | { line: number; error: string };

export type ImportFormat = 'jsonl' | 'csv';

/** A problem with the file as a whole (unreadable header, record too long): the import stops. */
export class ImportSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImportSourceError';
  }
}

/** The format a file name implies: .jsonl/.ndjson/.json → jsonl, .csv → csv; null otherwise. */
export function formatOf(path: string): ImportFormat | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  if (ext === '.csv') return 'csv';
  return null;
}

const MAX_LINE_CHARS = 1 << 20;

/** JSON Lines: one JSON object per line; blank lines are skipped; a line over 1 MiB is an error of its own. */
export async function* jsonLinesRecords(chunks: AsyncIterable<string>): AsyncGenerator<SourceRecord[]> {
  let pending = '';
  let line = 1;
  let skipping = false; // inside an over-long line, dropping text up to its end
  let first = true;
  const parse = (text: string, at: number, out: SourceRecord[]) => {
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (trimmed.trim() === '') return;
    try {
      out.push({ line: at, value: JSON.parse(trimmed) as unknown });
    } catch (error) {
      out.push({ line: at, error: `invalid JSON: ${(error as Error).message}` });
    }
  };
  for await (let chunk of chunks) {
    if (first) {
      chunk = chunk.replace(/^\uFEFF/, '');
      first = false;
    }
    const out: SourceRecord[] = [];
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
      if (skipping) skipping = false;
      else parse(pending + chunk.slice(from, nl), line, out);
      pending = '';
      from = nl + 1;
      line++;
    }
    if (!skipping) {
      pending += chunk.slice(from);
      if (pending.length > MAX_LINE_CHARS) {
        out.push({ line, error: `line longer than ${MAX_LINE_CHARS} characters` });
        pending = '';
        skipping = true;
      }
    }
    if (out.length) yield out;
  }
  if (!skipping && pending.length) {
    const out: SourceRecord[] = [];
    parse(pending, line, out);
    if (out.length) yield out;
  }
}

/** CSV with a header row (csv-columns.ts); each row mapped to the JSON Lines record shape. */
export async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<SourceRecord[]> {
  const parser = new CsvParser(MAX_LINE_CHARS);
  let columns: CsvColumn[] | null = null;
  const convert = (rows: ReturnType<CsvParser['push']>): SourceRecord[] => {
    const out: SourceRecord[] = [];
    for (const row of rows) {
      if (columns === null) {
        if (row.error) throw new ImportSourceError(`line ${row.line}: header: ${row.error}`);
        columns = csvHeader(row.fields);
        continue;
      }
      if (row.error) {
        out.push({ line: row.line, error: row.error });
        continue;
      }
      const mapped = csvRowToRecord(columns, row.fields);
      out.push(mapped.ok ? { line: row.line, value: mapped.record } : { line: row.line, error: mapped.reason });
    }
    return out;
  };
  try {
    for await (const chunk of chunks) {
      const out = convert(parser.push(chunk));
      if (out.length) yield out;
    }
    const out = convert(parser.end());
    if (out.length) yield out;
  } catch (error) {
    if (error instanceof CsvFormatError || error instanceof CsvHeaderError)
      throw new ImportSourceError(error.message, { cause: error });
    throw error;
  }
  if (columns === null) throw new ImportSourceError('line 1: the file is empty (a CSV import needs a header row)');
}

/** Records of a file, read in 1 MiB chunks (UTF-8). */
export function fileRecords(path: string, format: ImportFormat): AsyncIterable<SourceRecord[]> {
  const chunks = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 }) as AsyncIterable<string>;
  return format === 'csv' ? csvRecords(chunks) : jsonLinesRecords(chunks);
}

/** Records of in-memory text (tests, generated data). */
export function textRecords(text: string, format: ImportFormat): AsyncIterable<SourceRecord[]> {
  async function* one() {
    yield text;
  }
  return format === 'csv' ? csvRecords(one()) : jsonLinesRecords(one());
}

/** Already parsed records (the demo generator): line = position, from 1. */
export async function* valueRecords(values: Iterable<unknown>, batchSize = 500): AsyncGenerator<SourceRecord[]> {
  let batch: SourceRecord[] = [];
  let line = 0;
  for (const value of values) {
    batch.push({ line: ++line, value });
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
