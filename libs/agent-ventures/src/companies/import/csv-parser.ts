/**
 * A streaming CSV parser (RFC 4180): fields separated by commas, records by CRLF, LF or CR;
 * a field in double quotes may hold commas, line breaks and doubled quotes (`""` → `"`). A quote
 * inside an unquoted field is kept as it is (as most producers write it). Text after a closing
 * quote other than a separator makes that record malformed, reported with its line, and parsing
 * goes on at the next line. Blank lines are skipped.
 *
 * Memory is bounded by the longest record: `push` returns every record completed by a chunk and
 * keeps only the unfinished tail; a record longer than `maxRecordChars` is a CsvFormatError (an
 * unterminated quote would otherwise swallow the rest of the file).
 */

export interface CsvRow {
  /** Line (1-based) where the record starts. */
  line: number;
  fields: string[];
  /** Set when the record is malformed; `fields` is then what could be read. */
  error?: string;
}

export class CsvFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'CsvFormatError';
  }
}

const QUOTE = 34; // "
const COMMA = 44;
const LF = 10;
const CR = 13;

export class CsvParser {
  private buffer = '';
  /** Line number of the next record to parse (1-based). */
  private line = 1;

  constructor(private readonly maxRecordChars = 1 << 20) {}

  /** Parses what `chunk` completes; keeps the unfinished record for the next call. */
  push(chunk: string): CsvRow[] {
    this.buffer = this.buffer.length === 0 ? chunk : this.buffer + chunk;
    return this.drain(false);
  }

  /** End of input: the unfinished record (if any) is complete, or malformed. */
  end(): CsvRow[] {
    return this.drain(true);
  }

  private drain(final: boolean): CsvRow[] {
    const rows: CsvRow[] = [];
    const buf = this.buffer;
    let pos = 0;
    while (pos < buf.length) {
      const parsed = this.record(buf, pos, final);
      if (parsed === null) break;
      pos = parsed.next;
      const startLine = this.line;
      this.line += parsed.lines;
      if (parsed.row.fields.length === 1 && parsed.row.fields[0] === '' && !parsed.quoted && !parsed.row.error)
        continue; // blank line
      parsed.row.line = startLine;
      rows.push(parsed.row);
    }
    this.buffer = buf.slice(pos);
    if (!final && this.buffer.length > this.maxRecordChars) {
      throw new CsvFormatError(
        this.line,
        `record longer than ${this.maxRecordChars} characters (an unterminated quote?)`,
      );
    }
    if (final && this.buffer.length > 0) {
      // Only an unterminated quoted field leaves text behind at the end.
      rows.push({ line: this.line, fields: [], error: 'unterminated quoted field' });
      this.buffer = '';
    }
    return rows;
  }

  /**
   * One record from `start`, or null when the buffer ends inside it (more input needed).
   * `lines` is how many line breaks it spans, its terminator included.
   */
  private record(
    buf: string,
    start: number,
    final: boolean,
  ): { row: CsvRow; next: number; lines: number; quoted: boolean } | null {
    const fields: string[] = [];
    let error: string | undefined;
    let lines = 0;
    let quoted = false;
    let i = start;
    for (;;) {
      // One field from i.
      if (buf.charCodeAt(i) === QUOTE) {
        quoted = true;
        let value = '';
        let j = i + 1;
        for (;;) {
          const q = buf.indexOf('"', j);
          if (q < 0) return null; // unterminated: more input, or (final) an error row from drain
          value += buf.slice(j, q);
          if (q + 1 >= buf.length && !final) return null; // `"` at the end: maybe the first of `""`
          if (buf.charCodeAt(q + 1) === QUOTE) {
            value += '"';
            j = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        lines += countLf(value);
        fields.push(value);
        const c = buf.charCodeAt(i);
        if (i < buf.length && c !== COMMA && c !== LF && c !== CR) {
          // Garbage after the closing quote: the record is malformed; skip to the end of the line.
          error ??= `unexpected text after the closing quote of field ${fields.length}`;
          while (i < buf.length && buf.charCodeAt(i) !== LF && buf.charCodeAt(i) !== CR) i++;
        }
      } else {
        let j = i;
        while (j < buf.length) {
          const c = buf.charCodeAt(j);
          if (c === COMMA || c === LF || c === CR) break;
          j++;
        }
        fields.push(buf.slice(i, j));
        i = j;
      }
      // After a field: a separator, a line break, or the end of the buffer.
      if (i >= buf.length) {
        if (!final) return null;
        return { row: { line: 0, fields, ...(error ? { error } : {}) }, next: i, lines, quoted };
      }
      const c = buf.charCodeAt(i);
      if (c === COMMA) {
        i++;
        if (i >= buf.length && !final) return null;
        if (i >= buf.length) {
          fields.push('');
          return { row: { line: 0, fields, ...(error ? { error } : {}) }, next: i, lines, quoted };
        }
        continue;
      }
      if (c === CR) {
        if (i + 1 >= buf.length && !final) return null; // CR at the end: maybe CRLF
        i += buf.charCodeAt(i + 1) === LF ? 2 : 1;
      } else {
        i += 1; // LF
      }
      lines += 1;
      return { row: { line: 0, fields, ...(error ? { error } : {}) }, next: i, lines, quoted };
    }
  }
}

function countLf(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
