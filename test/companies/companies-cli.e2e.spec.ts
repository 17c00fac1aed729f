import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { svcInProcess as svc } from '../e2e/support/cli-in-process.js';

describe('svc companies (the CLI in process)', () => {
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-companies-'));
    env = { SVC_DATA_DIR: join(dir, 'data') };
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('imports a CSV file: bad rows on stderr with their line, the total and a closing line, summary on stdout, exit 1 as rows were rejected; again: nothing changes', async () => {
    const file = join(dir, 'companies.csv');
    await writeFile(
      file,
      [
        'name,domain,sectors,country,stage,headcount',
        'Acme,acme.example,fintech;ai,US,seed,12',
        'Broken,,fintech,US,seed,3',
        '"Quoted, Inc.",quoted.example,saas,GB,series-a,40',
        'Bad Stage,badstage.example,saas,GB,series-x,40',
      ].join('\n'),
    );
    const first = await svc(['companies', 'import', file, '--create'], env);
    assert.equal(first.code, 1, first.stderr);
    const stderr = first.stderr.trimEnd().split('\n');
    assert.deepEqual(
      stderr.filter((l) => l.startsWith('line ')),
      [
        'line 3: domain: expected a domain, e.g. "example.com"',
        'line 5: stage: expected a stage: pre-seed, seed, series-a, series-b, series-c, series-d, growth, public',
      ],
    );
    assert.equal(stderr[0], `svc companies import: 4 records in ${file}`);
    assert.equal(
      stderr.at(-1),
      'svc companies import: done, 4/4 records read: 2 imported, 0 updated, 0 unchanged, 2 rejected',
    );
    const summary = JSON.parse(first.stdout) as Record<string, unknown>;
    assert.deepEqual(
      {
        read: summary.read,
        imported: summary.imported,
        updated: summary.updated,
        unchanged: summary.unchanged,
        rejected: summary.rejected,
        format: summary.format,
      },
      { read: 4, imported: 2, updated: 0, unchanged: 0, rejected: 2, format: 'csv' },
    );

    const again = await svc(['companies', 'import', file], env);
    assert.equal(again.code, 1, 'the two bad rows are still rejected');
    assert.equal((JSON.parse(again.stdout) as { unchanged: number }).unchanged, 2);
  });

  it('generate prints JSON Lines; usage errors exit 2, unreadable files exit 1 with one line', async () => {
    const generated = await svc(['companies', 'generate', '--count', '25', '--as-of', '2026-11-01'], env);
    assert.equal(generated.code, 0);
    const lines = generated.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 25);
    assert.equal((JSON.parse(lines[0]!) as { domain: string }).domain.includes('.'), true);

    const usage = await svc(['companies', 'import'], env);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /companies import takes one FILE/);
    const noFormat = await svc(['companies', 'import', join(dir, 'x.txt')], env);
    assert.equal(noFormat.code, 2);
    const missing = await svc(['companies', 'import', join(dir, 'missing.csv')], env);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr.trimEnd().split('\n').length, 1);
    assert.match(missing.stderr, /cannot read .*missing\.csv/);
    const header = join(dir, 'header.csv');
    await writeFile(header, 'name,domain,colour\nA,a.example,red\n');
    const badHeader = await svc(['companies', 'import', header], env);
    assert.equal(badHeader.code, 1);
    assert.match(badHeader.stderr, /^svc: line 1: unknown column "colour"/);
  });
});
