import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../../..', import.meta.url).pathname;

/** The processes `scripts/run-tests.mjs` would start for these arguments: each one's spec files. */
function plan(args: string[], env: Record<string, string> = {}): string[][] {
  const run = spawnSync(process.execPath, [join(root, 'scripts/run-tests.mjs'), '--list', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
}

describe('spec files sharing a process (scripts/run-tests.mjs, ADR 0101)', () => {
  it('puts the int files of one test folder in processes of at most 8, in path order', () => {
    const groups = plan(['int', 'test/platform/']);
    assert.deepEqual(
      groups.map((g) => g.length),
      [8, 6],
    );
    for (const file of groups.flat()) assert.match(file, /^dist\/test\/platform\/[^/]+\.int\.spec\.js$/);
    assert.deepEqual(groups.flat(), [...groups.flat()].sort());
  });

  it('never mixes areas or levels in one process', () => {
    for (const group of plan(['libs/documents', 'libs/kernel'])) {
      const kinds = new Set(
        group.map((f) => `${f.split('/').slice(1, 3).join('/')} ${/\.(\w+)\.spec\.js$/.exec(f)![1]}`),
      );
      assert.equal(kinds.size, 1, group.join(' '));
    }
  });

  it('runs alone a file with top-level hooks, and one that says `// spec-process: own`', () => {
    // The MongoDB contract file has an after() at its top level; the sqlite one has none, but
    // is the only other int file of its lib, so it is alone too: the two are not grouped.
    assert.deepEqual(plan(['int', 'libs/documents/']), [
      ['dist/libs/documents/src/mongodb/mongo-document-store.int.spec.js'],
      ['dist/libs/documents/src/sqlite/sqlite-document-store.int.spec.js'],
    ]);
    const smoke = plan(['test/bench/benches-smoke']);
    assert.equal(smoke.length, 6);
    for (const group of smoke) assert.equal(group.length, 1);
  });

  it('TEST_GROUPS=0 gives every file a process of its own', () => {
    const alone = plan(['int', 'test/platform/'], { TEST_GROUPS: '0' });
    assert.equal(alone.length, 14);
    for (const group of alone) assert.equal(group.length, 1);
  });
});
