// The static checks of `npm test` and `npm run lint`, two at a time (ADR 0097): ESLint alone
// takes most of a minute on one core while the others (Prettier, tsc, dependency-cruiser, the
// generated docs) fit beside it on the second. Each check's output is printed whole when it ends,
// never interleaved; the run fails when any check fails, after all have run.
// Usage: node scripts/check.mjs [typecheck] [lint]   (both when none is named)
// CHECK_CONCURRENCY sets how many run at once (default 2).
import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Longest first, so the short ones fill the other lane: [group, name, command, args].
const all = [
  ['lint', 'eslint', 'eslint', ['.']],
  ['typecheck', 'typecheck', 'tsc', ['-p', 'tsconfig.json', '--noEmit']],
  ['lint', 'prettier', 'prettier', ['--check', '.']],
  ['lint', 'dependency-cruiser', 'depcruise', ['apps', 'libs', 'test', '--config', '.dependency-cruiser.cjs']],
  ['lint', 'architecture map', 'node', ['scripts/architecture-doc.mjs', '--check']],
  ['lint', 'names in the docs', 'node', ['scripts/docs-names.mjs']],
];
const groups = new Set(all.map(([group]) => group));
const asked = process.argv.slice(2);
for (const group of asked) {
  if (!groups.has(group)) {
    console.error(`check: unknown group ${group} (known: ${[...groups].join(', ')})`);
    process.exit(2);
  }
}
const checks = all.filter(([group]) => asked.length === 0 || asked.includes(group)).map(([, ...check]) => check);

const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH}` };

function run([name, command, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (output += c));
    child.on('error', (error) => resolve({ name, ok: false, output: `${output}${error.message}\n`, started }));
    child.on('exit', (code, signal) => resolve({ name, ok: code === 0 && !signal, output, started }));
  });
}

const concurrency = Math.max(1, Number(process.env.CHECK_CONCURRENCY ?? 2));
const queue = [...checks];
const failed = [];
async function lane() {
  for (let check = queue.shift(); check; check = queue.shift()) {
    const { name, ok, output, started } = await run(check);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(`${ok ? '✔' : '✖'} ${name} (${seconds} s)\n${output ? `${output.trimEnd()}\n` : ''}`);
    if (!ok) failed.push(name);
  }
}
await Promise.all(Array.from({ length: concurrency }, lane));
if (failed.length) {
  console.error(`check: failed: ${failed.join(', ')}`);
  process.exit(1);
}
