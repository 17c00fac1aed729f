// Runs every compiled benchmark (dist/test/bench/*.bench.js) in sequence, each in its own Node
// process so one bench's heap and peak RSS never colour the next. Output goes straight through.
// Usage: node scripts/run-bench.mjs [--smoke] [name-filter...]
// --smoke (or BENCH_SMOKE=1): every bench at a size of seconds, to prove it still runs (npm test
// does so through test/bench/benches-smoke-N.e2e.spec.ts); its figures mean nothing.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'dist', 'test', 'bench');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const filters = args.filter((a) => a !== '--smoke');
const env = smoke ? { ...process.env, BENCH_SMOKE: '1' } : process.env;

let files;
try {
  files = (await readdir(dir)).filter((f) => f.endsWith('.bench.js')).sort();
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
  files = [];
}
files = files.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('run-bench: no benchmark matched (did `npm run build` run?)');
  process.exit(1);
}

let failed = 0;
for (const file of files) {
  const path = join(dir, file);
  console.log(`\n=== ${relative(root, path)}`);
  const started = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', path], { stdio: 'inherit', cwd: root, env });
    child.on('exit', (c, signal) => resolve(signal ? 1 : (c ?? 1)));
  });
  console.log(
    `=== ${file}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
