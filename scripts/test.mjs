// npm test: the static checks (scripts/check.mjs typecheck lint) and the spec files
// (scripts/run-tests.mjs, after the build) at the same time, rather than one after the other.
// The spec files leave a share of the cores idle while they wait on processes, sockets, Chromium
// and the kept-alive client's idle gap (ADR 0097); the checks fill it. The checks' output is held
// and printed after the specs' (so the two do not interleave); the exit status fails if either did.
//
// Measured on this two-core machine, quiet (ADR 0097, second amendment): checks, then the specs two
// files at a time, 395 s; the specs three at a time 320 s alone; both together 373 s.
// TEST_CONCURRENCY (default here 3) and CHECK_CONCURRENCY (default 2) set the lanes.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const started = Date.now();

function run(args, { capture, env = {} }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    if (capture) {
      child.stdout.setEncoding('utf8').on('data', (c) => (output += c));
      child.stderr.setEncoding('utf8').on('data', (c) => (output += c));
    }
    child.on('error', (error) => resolve({ ok: false, output: `${output}${error.message}\n` }));
    child.on('exit', (code, signal) => resolve({ ok: code === 0 && !signal, output }));
  });
}

const checks = run(['scripts/check.mjs', 'typecheck', 'lint'], { capture: true });
const build = await run(['scripts/build.mjs'], { capture: false });
const specs = build.ok
  ? await run(['scripts/run-tests.mjs'], {
      capture: false,
      env: { TEST_CONCURRENCY: process.env.TEST_CONCURRENCY ?? '3' },
    })
  : { ok: false };
const checked = await checks;
process.stdout.write(`\nstatic checks (run beside the specs):\n${checked.output}`);
const seconds = ((Date.now() - started) / 1000).toFixed(0);
const failed = [!checked.ok && 'static checks', !build.ok && 'build', !specs.ok && 'spec files'].filter(Boolean);
if (failed.length) {
  console.error(`test: failed: ${failed.join(', ')} (${seconds} s)`);
  process.exit(1);
}
console.log(`test: static checks and spec files passed (${seconds} s)`);
