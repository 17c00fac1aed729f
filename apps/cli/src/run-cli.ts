import type { CommitInfo } from '#projections';
import { resolveCliArgs, USAGE, usageFor, UsageError } from './cli-args.js';

/** Where a run of `svc` writes, what it reads its settings from, and how it hears Ctrl-C. */
export interface CliProcess {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  readonly env: Record<string, string | undefined>;
  /** Hooks SIGINT and SIGTERM while a store command runs; returns the unhook. */
  onSignal(abort: () => void): () => void;
}

/** The part of a writable stream `svc` uses, so a test can run a command in its own process. */
export interface CliStream {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/** Writes one line, honouring back-pressure. */
function writer(stream: CliStream): (line: string) => Promise<void> {
  return (line) =>
    new Promise((resolve) => {
      if (stream.write(`${line}\n`)) resolve();
      else stream.once('drain', resolve);
    });
}

/**
 * One run of `svc` with `args`, to its exit code: main.ts gives it the process; the e2e specs give
 * it captured streams to run commands whose process behaviour another test already checks without
 * a process start each (ADR 0097).
 */
export async function runCli(args: string[], proc: CliProcess): Promise<number> {
  try {
    return await run(args, proc);
  } catch (error) {
    // ConfigError's message is already the one line naming the variable.
    const message =
      error instanceof Error
        ? error.name === 'ConfigError'
          ? error.message
          : `svc: ${error.message}`
        : `svc: ${String(error)}`;
    proc.stderr.write(`${message.split('\n')[0]}\n`);
    return 1;
  }
}

async function run(args: string[], proc: CliProcess): Promise<number> {
  // `--create` is the CLI's own option, taken before the command's arguments are parsed.
  const create = args.includes('--create');
  const argv = args.filter((a) => a !== '--create');
  let resolved;
  try {
    resolved = resolveCliArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      proc.stderr.write(`svc: ${error.message}\n\n${usageFor(error, argv)}\n`);
      return 2;
    }
    throw error;
  }
  if (!('entry' in resolved)) {
    proc.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { entry, command } = resolved;
  const abort = new AbortController();
  const io = { out: writer(proc.stdout), err: writer(proc.stderr), signal: abort.signal, now: () => new Date() };
  if (!entry.store) return (await entry.run(command, io)) ?? 0;

  const [{ loadConfig }, { missingStore }] = await Promise.all([import('#kernel'), import('./data-dir-check.js')]);
  const config = loadConfig(proc.env);
  const refusal = missingStore(config, create);
  if (refusal !== undefined) {
    proc.stderr.write(`${refusal}\n`);
    return 1;
  }
  // Loaded only now, so usage errors, help and a wrong data directory answer at once.
  const [{ NestFactory }, { AppLogger }, { CliModule }] = await Promise.all([
    import('@nestjs/core'),
    import('#http'),
    import('#runtime'),
  ]);
  // Quiet by default: stdout is the command's output, logs go to stderr.
  const logLevel = proc.env.LOG_LEVEL ? config.logLevel : 'warn';
  let commitListener: ((info: CommitInfo) => void) | undefined;
  const app = await NestFactory.createApplicationContext(
    CliModule.forRoot(config, { logLevel, onCommit: (info) => commitListener?.(info) }),
    { bufferLogs: true, abortOnError: false },
  );
  app.useLogger(app.get(AppLogger));
  await app.init();
  const unhook = proc.onSignal(() => abort.abort());
  try {
    const context = {
      ...io,
      app,
      config,
      onCommit: (listener: (info: CommitInfo) => void) => (commitListener = listener),
    };
    return (await entry.run(command, context)) ?? 0;
  } catch (error) {
    // Arguments the domain refuses (an unknown scope, ...) are bad usage too.
    if (error instanceof UsageError) {
      proc.stderr.write(`svc: ${error.message}\n\n${usageFor(error, argv)}\n`);
      return 2;
    }
    throw error;
  } finally {
    unhook();
    await app.close();
  }
}
