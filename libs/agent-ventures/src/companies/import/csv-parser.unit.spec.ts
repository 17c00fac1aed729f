import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CsvFormatError, CsvParser, type CsvRow } from './csv-parser.js';

/** Parses `text` fed in chunks of `size` characters (1 = every boundary a chunk can fall on). */
function parse(text: string, size = text.length || 1): CsvRow[] {
  const parser = new CsvParser();
  const rows: CsvRow[] = [];
  for (let i = 0; i < text.length; i += size) rows.push(...parser.push(text.slice(i, i + size)));
  rows.push(...parser.end());
  return rows;
}

/** Same rows whatever the chunking. */
function parseAll(text: string): CsvRow[] {
  const whole = parse(text);
  for (const size of [1, 2, 3, 7]) assert.deepEqual(parse(text, size), whole, `chunks of ${size}`);
  return whole;
}

describe('CSV parser', () => {
  it('splits plain fields and records (LF, CRLF, CR), with the line each record starts on', () => {
    assert.deepEqual(parseAll('a,b,c\n1,2,3\r\n4,,6\r7,8,9'), [
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2', '3'] },
      { line: 3, fields: ['4', '', '6'] },
      { line: 4, fields: ['7', '8', '9'] },
    ]);
  });

  it('quoted fields hold commas, doubled quotes and line breaks; lines keep counting inside them', () => {
    const rows = parseAll('name,note\n"Acme, Inc.","He said ""hi""\nand left"\n"x",""\nlast,"a\r\nb"\n');
    assert.deepEqual(rows, [
      { line: 1, fields: ['name', 'note'] },
      { line: 2, fields: ['Acme, Inc.', 'He said "hi"\nand left'] },
      { line: 4, fields: ['x', ''] },
      { line: 5, fields: ['last', 'a\r\nb'] },
    ]);
  });

  it('skips blank lines but counts them, and keeps a trailing empty field', () => {
    assert.deepEqual(parseAll('a,b\n\n\n1,\n'), [
      { line: 1, fields: ['a', 'b'] },
      { line: 4, fields: ['1', ''] },
    ]);
  });

  it('keeps a quote inside an unquoted field as it is', () => {
    assert.deepEqual(parseAll('5" disk,b\n'), [{ line: 1, fields: ['5" disk', 'b'] }]);
  });

  it('text after a closing quote makes that record malformed (reported with its line); the next line parses', () => {
    const rows = parseAll('a,b\n"x"y,z\nok,1\n');
    assert.equal(rows.length, 3);
    assert.equal(rows[1]!.line, 2);
    assert.match(rows[1]!.error ?? '', /after the closing quote/);
    assert.deepEqual(rows[2], { line: 3, fields: ['ok', '1'] });
  });

  it('an unterminated quote at the end of input is a malformed record', () => {
    const rows = parseAll('a,b\n1,"open\nstill open');
    assert.deepEqual(rows[0], { line: 1, fields: ['a', 'b'] });
    assert.equal(rows[1]!.line, 2);
    assert.match(rows[1]!.error ?? '', /unterminated/);
  });

  it('a record longer than the limit stops the parse (an unterminated quote would swallow the file)', () => {
    const parser = new CsvParser(100);
    parser.push('a\n');
    assert.throws(
      () => parser.push(`"${'x'.repeat(200)}`),
      (e: unknown) => e instanceof CsvFormatError && e.line === 2,
    );
  });
});
