// The frame of a chaos scenario: a bounded run that prints exactly one
// summary line, `chaos <name>: ok|FAILED <figures>`, and exits non-zero on failure. Details of a
// failure go to stderr before that line. Children started through the scenario are SIGKILLed
// when it ends however it ends, and its temporary directories removed.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_MAIN, CLI_MAIN, type Finished, LiveProcess, run, WORKER_MAIN } from '../../e2e/support/processes.js';

export type Figures = Record<string, string | number>;

export class ScenarioFailure extends Error {}

export class Scenario {
  readonly failures: string[] = [];
  readonly figures: Figures = {};
  private readonly children = new Set<LiveProcess>();
  private readonly dirs: string[] = [];
  private readonly started = performance.now();

  constructor(readonly name: string) {}

  /** Records a broken expectation (the run goes on, so one run reports every break). */
  check(ok: boolean, message: string): boolean {
    if (!ok) this.failures.push(message);
    return ok;
  }

  /** Stops the run here: nothing after this point would mean anything. */
  fail(message: string): never {
    this.failures.push(message);
    throw new ScenarioFailure(message);
  }

  elapsedMs(): number {
    return Math.round(performance.now() - this.started);
  }

  async tempDir(prefix = `chaos-${this.name}-`): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** A built main as a child; SIGKILLed at the end if still running. */
  start(main: string, env: Record<string, string>): LiveProcess {
    const child = LiveProcess.start(main, [], env);
    this.children.add(child);
    void child.exited.then(() => this.children.delete(child));
    return child;
  }

  /** An api process; resolves with it and its base URL once it listens. */
  async startApi(env: Record<string, string>): Promise<{ process: LiveProcess; url: string }> {
    const api = this.start(API_MAIN, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
    const line = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the api to listen');
    return { process: api, url: /listening on (http:\/\/[^\s"]+)/.exec(line)![1]! };
  }

  /** The worker (projections and dispatchers); resolves once it says it started. */
  async startWorker(env: Record<string, string>): Promise<LiveProcess> {
    const worker = this.start(WORKER_MAIN, { LOG_LEVEL: 'info', ...env });
    await worker.waitForLine((l) => l.includes('worker started'), 60_000, 'the worker to start');
    return worker;
  }

  /** SIGKILL, and wait until the process is gone. */
  async kill(child: LiveProcess): Promise<void> {
    child.child.kill('SIGKILL');
    await child.exited;
  }

  /** `svc <args>` to completion. */
  cli(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<Finished> {
    return run(CLI_MAIN, args, env, timeoutMs);
  }

  /**
   * A platform key of a new enterprise account whose rate limits sit far above any load here (a
   * free plan allows 60 requests a minute), made with the CLI before the servers start (`--create`: the store is new).
   */
  async platformKey(env: Record<string, string>): Promise<{ accountId: string; key: string }> {
    const account = await this.cli(
      ['accounts', 'create', '--plan', 'enterprise', '--per-minute', '1000000', '--per-hour', '10000000', '--create'],
      env,
    );
    if (account.code !== 0) this.fail(`accounts create exited ${account.code}: ${account.stderr}`);
    const accountId = jsonLines(account.stdout)[0]!.account_id as string;
    const key = await this.cli(
      ['keys', 'create', '--account', accountId, '--scopes', 'read,write,admin', '--name', 'chaos'],
      env,
    );
    if (key.code !== 0) this.fail(`keys create exited ${key.code}: ${key.stderr}`);
    return { accountId, key: jsonLines(key.stdout)[0]!.key as string };
  }

  async cleanUp(): Promise<void> {
    for (const child of this.children) child.child.kill('SIGKILL');
    await Promise.all([...this.children].map((c) => c.exited));
    await Promise.all(this.dirs.map((d) => removeDir(d)));
  }
}

/** Removes a temp directory; one a scenario mounted a filesystem on (and did not get to unmount) first. */
async function removeDir(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EBUSY') throw error;
    spawnSync('umount', ['-l', dir]);
    await rm(dir, { recursive: true, force: true });
  }
}

const format = (figures: Figures) =>
  Object.entries(figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

/**
 * Runs one scenario within `limitMs` and exits the process: 0 when every check held, 1 otherwise
 * (a break, a thrown error or the time limit). Prints the one summary line last.
 */
export async function runScenario(name: string, limitMs: number, body: (s: Scenario) => Promise<void>): Promise<never> {
  const scenario = new Scenario(name);
  let timer: NodeJS.Timeout | undefined;
  const timeLimit = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      scenario.failures.push(`time limit of ${limitMs} ms reached`);
      resolve();
    }, limitMs);
  });
  try {
    await Promise.race([body(scenario), timeLimit]);
  } catch (error) {
    if (!(error instanceof ScenarioFailure))
      scenario.failures.push(`error: ${(error as Error).stack ?? String(error)}`);
  } finally {
    clearTimeout(timer);
    await scenario.cleanUp();
  }
  scenario.figures.s = (scenario.elapsedMs() / 1000).toFixed(1);
  const ok = scenario.failures.length === 0;
  for (const f of scenario.failures.slice(0, 50)) process.stderr.write(`chaos ${name}: ${f}\n`);
  if (scenario.failures.length > 50) process.stderr.write(`chaos ${name}: ... ${scenario.failures.length - 50} more\n`);
  process.stdout.write(`chaos ${name}: ${ok ? 'ok' : 'FAILED'} ${format(scenario.figures)}\n`);
  process.exit(ok ? 0 : 1);
}

/** Polls `check` until it holds; false after `timeoutMs`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The JSON lines of a CLI's stdout. */
export const jsonLines = (out: string): Array<Record<string, any>> =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
