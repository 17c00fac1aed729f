import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Repository root (this file runs from dist/test/e2e/support). */
export const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
export const API_MAIN = join(ROOT, 'dist/apps/api/src/main.js');
export const WORKER_MAIN = join(ROOT, 'dist/apps/worker/src/main.js');
export const CLI_MAIN = join(ROOT, 'dist/apps/cli/src/main.js');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Environment for a child: only what it needs plus `env` (no inherited SVC_* or URLs). Node's own
 * options pass on, with the better-sqlite3 build they name when the suite runs on another Node
 * (`npm run test:node24`, ADR 0090).
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const runtime = Object.fromEntries(
    (['NODE_OPTIONS', 'BETTER_SQLITE3_PACKAGE'] as const).flatMap((k) =>
      process.env[k] === undefined ? [] : [[k, process.env[k]]],
    ),
  );
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...runtime, ...env };
}

/** Runs a built entry point to completion (bounded by `timeoutMs`). */
export async function run(
  main: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<Finished> {
  const child = spawn(process.execPath, [main, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

/** A long-running child whose stdout lines can be awaited one predicate at a time. */
export class LiveProcess {
  readonly lines: string[] = [];
  stderr = '';
  private waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => (w.match(line) ? (w.resolve(line), false) : true));
    });
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (this.stderr += c));
    this.exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  }

  static start(main: string, args: string[], env: Record<string, string>): LiveProcess {
    return new LiveProcess(
      spawn(process.execPath, [main, ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }),
    );
  }

  /** The first line (already printed or to come) matching `match`; fails after `timeoutMs`. */
  waitForLine(match: (line: string) => boolean, timeoutMs: number, what: string): Promise<string> {
    const seen = this.lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; stderr: ${this.stderr.slice(-2000)}`)),
        timeoutMs,
      );
      const done = (line: string) => {
        clearTimeout(timer);
        resolve(line);
      };
      this.waiters.push({ match, resolve: done });
      void this.exited.then(([code, signal]) => {
        clearTimeout(timer);
        reject(new Error(`process exited (${code ?? signal}) before ${what}; stderr: ${this.stderr.slice(-2000)}`));
      });
    });
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<[number | null, NodeJS.Signals | null]> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** Starts the built api on a free port of 127.0.0.1 and resolves once it listens, with its URL. */
export async function startApiProcess(env: Record<string, string>): Promise<{ api: LiveProcess; url: string }> {
  const api = LiveProcess.start(API_MAIN, [], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
  const line = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
  return { api, url: /listening on (http:\/\/[^\s"]+)/.exec(line)![1]! };
}
