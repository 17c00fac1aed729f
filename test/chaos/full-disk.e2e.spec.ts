import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { run } from '../e2e/support/processes.js';

const SCENARIO = fileURLToPath(new URL('./scenarios/full-disk.chaos.js', import.meta.url));

/**
 * The quick fault-harness scenario in `npm test`: `chaos full-disk` as
 * `npm run chaos full-disk` runs it (a tmpfs in a private mount namespace, filled, then freed).
 * The other quick one, appends under SIGKILL, runs here as test/eventstore/crash.int.spec.ts.
 */
/**
 * Unprivileged user namespaces are a property of the kernel and its sandbox, not something a
 * step can install: where they are refused (e.g. Docker's default seccomp profile), this test is
 * skipped and says so by name; `npm run chaos full-disk` still fails there and says why.
 */
function mountNamespaceUnavailable(): string | undefined {
  const probe = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'true'], { encoding: 'utf8' });
  if (probe.error) return `no unshare here (${probe.error.message})`;
  if (probe.status !== 0) return `unprivileged user namespaces refused here: ${probe.stderr.trim()}`;
  return undefined;
}

describe('chaos full-disk (the scenario, run as npm run chaos runs it)', () => {
  it(
    'writes answer 503 with a clear log line while the disk is full, nothing acknowledged is lost, writes come back',
    {
      skip: mountNamespaceUnavailable(),
    },
    async () => {
      const r = await run(SCENARIO, [], {}, 110_000);
      const lines = r.stdout.trimEnd().split('\n');
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(lines.at(-1)!, /^chaos full-disk: ok /);
      assert.equal(lines.filter((l) => l.startsWith('chaos ')).length, 1, 'exactly one summary line');
    },
  );
});
