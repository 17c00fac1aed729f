import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../cli-args.js';

describe('svc companies arguments', () => {
  it('import: one file, format from the extension or --format, optional --source', () => {
    assert.deepEqual(parseCliArgs(['companies', 'import', 'a.CSV']), {
      kind: 'companies-import',
      file: 'a.CSV',
      format: 'csv',
    });
    assert.deepEqual(parseCliArgs(['companies', 'import', 'x.ndjson', '--source', 'crm']), {
      kind: 'companies-import',
      file: 'x.ndjson',
      format: 'jsonl',
      source: 'crm',
    });
    assert.deepEqual(parseCliArgs(['companies', 'import', 'dump.txt', '--format', 'jsonl']), {
      kind: 'companies-import',
      file: 'dump.txt',
      format: 'jsonl',
    });
    for (const bad of [
      ['companies', 'import'],
      ['companies', 'import', 'a.csv', 'b.csv'],
      ['companies', 'import', 'a.txt'],
      ['companies', 'import', 'a.csv', '--format', 'xml'],
      ['companies'],
      ['companies', 'export'],
    ]) {
      assert.throws(() => parseCliArgs(bad), UsageError, bad.join(' '));
    }
  });

  it('generate: count, seed, reference day, format', () => {
    assert.deepEqual(parseCliArgs(['companies', 'generate']), {
      kind: 'companies-generate',
      count: 5000,
      format: 'jsonl',
    });
    assert.deepEqual(
      parseCliArgs([
        'companies',
        'generate',
        '--count',
        '10',
        '--seed',
        '7',
        '--as-of',
        '2026-01-31',
        '--format',
        'csv',
      ]),
      {
        kind: 'companies-generate',
        count: 10,
        seed: 7,
        asOf: '2026-01-31',
        format: 'csv',
      },
    );
    for (const bad of [['--count', '0'], ['--count', 'x'], ['--as-of', '2026-1-1'], ['extra']])
      assert.throws(() => parseCliArgs(['companies', 'generate', ...bad]), UsageError);
  });
});
