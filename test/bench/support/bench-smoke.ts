// npm test's smoke run of the benchmarks: every bench, at a size of seconds
// (scripts/run-bench.mjs --smoke), must still run to the end, so a bench that a new limit or a
// changed route breaks fails the suite, not months later (two benches died on the per-address
// limits unnoticed). Their figures mean nothing. The benches are dealt over six spec files
// (test/bench/benches-smoke-N.e2e.spec.ts) so each file stays well within the runner's
// per-file timeout and two run side by side.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

export const SMOKE_PARTS = 6;
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const benches = readdirSync(fileURLToPath(new URL('..', import.meta.url)))
  .filter((f) => f.endsWith('.bench.js'))
  .sort();

function runSmoke(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/run-bench.mjs', '--smoke', file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Spec part `part` (1..SMOKE_PARTS): every SMOKE_PARTS-th bench from the part's own. */
export function describeBenchSmoke(part: number): void {
  const mine = benches.filter((_, i) => i % SMOKE_PARTS === part - 1);
  describe(`benchmarks, smoke run (part ${part} of ${SMOKE_PARTS})`, () => {
    it('finds the benchmarks', () => {
      assert.ok(benches.length >= 12 && mine.length > 0, `found ${benches.join(', ')}`);
    });
    for (const file of mine) {
      it(`${file} runs to the end`, async () => {
        const { code, output } = await runSmoke(file);
        assert.equal(code, 0, `${file} exited ${code}:\n${output.slice(-3000)}`);
      });
    }
  });
}
