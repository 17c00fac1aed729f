// chaos full-disk: the api's data directory on a small filesystem of its own
// (a 32 MiB tmpfs mounted in a private user and mount namespace: `unshare --user --map-root-user
// --mount`, no root or host mount needed), filled up by a ballast file while agents sign up.
// Then: writes answer 503 (never 500) and the api logs a clear line saying the disk is full,
// reads still answer, the process survives; once the ballast is removed (space returns) writes
// succeed again without a restart; and nothing acknowledged is lost: every signup that answered
// 201 has a working key, also after a SIGKILL and a restart.
// Env: none. Needs util-linux `unshare` and unprivileged user namespaces (the scenario says so
// and fails when they are missing).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runScenario, type Scenario, until } from '../support/scenario.js';

const NAME = 'full-disk';
const FS_SIZE = '32m';

if (process.env.CHAOS_IN_MOUNT_NS !== '1') {
  // Re-run this file inside a private user + mount namespace, where it may mount a tmpfs.
  const r = spawnSync(
    'unshare',
    ['--user', '--map-root-user', '--mount', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url)],
    { stdio: 'inherit', env: { ...process.env, CHAOS_IN_MOUNT_NS: '1' } },
  );
  if (r.error || r.status === null || (r.status !== 0 && r.status !== 1)) {
    process.stderr.write(
      `chaos ${NAME}: cannot run in a private mount namespace (unshare): ${r.error?.message ?? r.stderr ?? `exit ${r.status}`}\n`,
    );
    process.stdout.write(`chaos ${NAME}: FAILED unshare_unavailable=1\n`);
    process.exit(1);
  }
  process.exit(r.status);
}

const signup = async (url: string, i: number) => {
  const r = await fetch(`${url}/api/v1/agents/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_name: `full-disk-${i}`, use_case: 'x'.repeat(200) }),
  });
  const body = (await r.json().catch(() => ({}))) as { key?: { api_key: string }; code?: string };
  return { status: r.status, key: body.key?.api_key, code: body.code };
};
const keyWorks = async (url: string, key: string) =>
  (await fetch(`${url}/api/v1/agents/status`, { headers: { 'x-api-key': key } })).status === 200;

await runScenario(NAME, 180_000, async (s: Scenario) => {
  const dir = await s.tempDir();
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${FS_SIZE}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mount.status !== 0) s.fail(`mount tmpfs failed: ${mount.stderr}`);
  mkdirSync(`${dir}/data`);
  const env: Record<string, string> = {
    SVC_DATA_DIR: `${dir}/data`,
    SVC_DEMO_DATA: 'false',
    SVC_SIGNUP_LIMIT_PER_HOUR: '1000000',
    SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '1000000',
    SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '100000000',
  };
  let { process: api, url } = await s.startApi(env);
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  let i = 0;
  const one = async () => {
    const r = await signup(url, i++);
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status === 201 && r.key) acknowledged.push(r.key);
    return r;
  };
  for (let k = 0; k < 50; k++) await one();
  const before = acknowledged.length;

  // Fill the filesystem: a ballast file written until ENOSPC.
  const ballast = `${dir}/ballast`;
  const fd = openSync(ballast, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  let ballastBytes = 0;
  try {
    for (;;) ballastBytes += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  // The last few bytes, so not even a page is left.
  try {
    for (;;) ballastBytes += writeSync(fd, chunk.subarray(0, 512));
  } catch {
    /* full */
  }
  closeSync(fd);
  s.figures.ballast_mib = (ballastBytes / 2 ** 20).toFixed(1);

  // Writes go on until the store refuses them: 503, a clear log line, the process alive.
  const fullStarted = performance.now();
  let refused = 0;
  let writesWhileFull = 0;
  const full = await until(
    async () => {
      const r = await one();
      writesWhileFull++;
      if (r.status === 503) refused++;
      return refused >= 20;
    },
    30_000,
    0,
  );
  s.check(full, `writes never failed with the disk full: ${JSON.stringify([...statuses])}`);
  s.figures.writes_until_refused = writesWhileFull;
  s.check(!statuses.has(500), `a write answered 500 with the disk full: ${JSON.stringify([...statuses])}`);
  // The answer's own line (the error filter's, naming the request), not only a projection's retry.
  const logLine = api.lines.find((l) => /failed \(request/.test(l) && /disk is full|no space left/i.test(l));
  s.check(
    logLine !== undefined,
    `no log line of a refused write says the disk is full; last lines: ${api.lines.slice(-5).join('\n')}`,
  );
  if (logLine) process.stderr.write(`chaos ${NAME}: the api logged: ${logLine.slice(0, 400)}\n`);
  s.check(api.child.exitCode === null && api.child.signalCode === null, 'the api exited with the disk full');
  // Reads still answer.
  s.check(await keyWorks(url, acknowledged[0]!), 'a read (agent status) failed with the disk full');

  // Space returns: writes succeed again, without a restart.
  rmSync(ballast);
  const freed = performance.now();
  const recovered = await until(async () => (await one()).status === 201, 30_000, 100);
  s.check(recovered, 'writes did not succeed again after space returned');
  s.figures.full_s = ((freed - fullStarted) / 1000).toFixed(1);
  s.figures.recovery_ms = Math.round(performance.now() - freed);
  for (let k = 0; k < 20; k++) await one();
  s.check(api.child.exitCode === null && api.child.signalCode === null, 'the api exited');

  // Nothing acknowledged is lost: every 201's key works, now and after a SIGKILL and a restart.
  const checkAll = async (when: string) => {
    let missing = 0;
    for (const key of acknowledged) if (!(await keyWorks(url, key))) missing++;
    s.check(missing === 0, `${when}: ${missing} of ${acknowledged.length} acknowledged signups have no working key`);
  };
  await checkAll('after recovery');
  await s.kill(api);
  ({ process: api, url } = await s.startApi(env));
  await checkAll('after a SIGKILL and a restart');
  Object.assign(s.figures, {
    acknowledged: acknowledged.length,
    before_full: before,
    refused_503: statuses.get(503) ?? 0,
    answers: [...statuses].map(([k, v]) => `${k}x${v}`).join(','),
  });
  await api.stop('SIGTERM');
  spawnSync('umount', [dir]);
});
