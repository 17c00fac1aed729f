import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { DataFileError, loadDataFile, parseDataFile } from './data-file.js';

const Schema = z.strictObject({ rows: z.array(z.strictObject({ name: z.string(), price: z.number() })) });

describe('loadDataFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'data-file-'));
  const moduleUrl = pathToFileURL(join(dir, 'reader.js')).href;
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);

  it('reads the file beside the module and returns the parsed content', () => {
    write('good.data.yaml', '# a comment\nrows:\n  - { name: "no", price: 3.5 }\n');
    assert.deepEqual(loadDataFile(moduleUrl, './good.data.yaml', Schema), { rows: [{ name: 'no', price: 3.5 }] });
  });

  it('rejects a field of the wrong type, naming the file and the field', () => {
    write('bad.data.yaml', 'rows:\n  - { name: a, price: 1 }\n  - { name: b, price: cheap }\n');
    assert.throws(
      () => loadDataFile(moduleUrl, './bad.data.yaml', Schema),
      (error: Error) =>
        error instanceof DataFileError &&
        error.message.startsWith(join(dir, 'bad.data.yaml') + ': ') &&
        error.message.includes('rows.1.price'),
    );
  });

  it('rejects an unknown field, a duplicate key and text that is not YAML', () => {
    const cases = {
      'rows:\n  - { name: a, price: 1, colour: red }\n': /rows\.0: Unrecognized key: "colour"/,
      'rows: []\nrows: []\n': /x\.data\.yaml: not valid YAML: .*Map keys must be unique/,
      'rows: [\n': /x\.data\.yaml: not valid YAML/,
    };
    for (const [text, message] of Object.entries(cases)) {
      assert.throws(() => parseDataFile('x.data.yaml', text, Schema), message);
    }
  });

  it('names a missing file', () => {
    assert.throws(() => loadDataFile(moduleUrl, './missing.data.yaml', Schema), /missing\.data\.yaml: cannot be read/);
  });
});
