// Runs the compiled spec files with Node's built-in test runner.
// Usage: node scripts/run-tests.mjs [unit|int|e2e] [--times=FILE] [path-filter...]
// Node 20's --test takes no globs, so the files are found here.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const levels = new Set(['unit', 'int', 'e2e']);
const args = process.argv.slice(2);
const level = args.find((a) => levels.has(a));
// --times=FILE writes each spec file's wall time there, longest first (scripts/file-times-reporter.mjs).
const times = args.find((a) => a.startsWith('--times='))?.slice('--times='.length);
const filters = args.filter((a) => !levels.has(a) && !a.startsWith('--times='));

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

const files = [];
for (const top of ['apps', 'libs', 'test']) {
  try {
    for await (const f of walk(join(root, 'dist', top))) {
      if (!/\.(unit|int|e2e)\.spec\.js$/.test(f)) continue;
      if (level && !f.endsWith(`.${level}.spec.js`)) continue;
      const rel = relative(root, f);
      if (filters.length && !filters.some((x) => rel.includes(x))) continue;
      files.push(f);
    }
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
}
// The long files first, so that the two lanes end together rather than one running a long e2e file
// alone at the end (ADR 0097): end-to-end, then integration, then the unit files; by path within.
const rank = { e2e: 0, int: 1, unit: 2 };
const levelOf = (f) => /\.(unit|int|e2e)\.spec\.js$/.exec(f)[1];
files.sort((a, b) => rank[levelOf(a)] - rank[levelOf(b)] || (a < b ? -1 : a > b ? 1 : 0));
if (files.length === 0) {
  console.error('run-tests: no spec files matched');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    ...(times ? ['--test-reporter=./scripts/file-times-reporter.mjs', `--test-reporter-destination=${times}`] : []),
    `--test-concurrency=${concurrency}`,
    '--test-timeout=120000',
    ...files,
  ],
  { stdio: 'inherit', cwd: root },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
