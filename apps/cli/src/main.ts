#!/usr/bin/env node
import 'reflect-metadata';
import * as nodeModule from 'node:module';
import type { CommitInfo } from '#projections';
import { resolveCliArgs, USAGE, usageFor, UsageError } from './cli-args.js';

/** Writes one line, honouring back-pressure. */
function writer(stream: NodeJS.WriteStream): (line: string) => Promise<void> {
  return (line) =>
    new Promise((resolve) => {
      if (stream.write(`${line}\n`)) resolve();
      else stream.once('drain', resolve);
    });
}

async function main(args: string[]): Promise<number> {
  // Node 22.1+ keeps the compiled code of the ~2,000 modules a store command loads on disk (in the
  // OS temp directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off): later starts skip compiling.
  // Node 20 has no such cache.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // `--create` is the CLI's own option, taken before the command's arguments are parsed.
  const create = args.includes('--create');
  const argv = args.filter((a) => a !== '--create');
  let resolved;
  try {
    resolved = resolveCliArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`svc: ${error.message}\n\n${usageFor(error, argv)}\n`);
      return 2;
    }
    throw error;
  }
  if (!('entry' in resolved)) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { entry, command } = resolved;
  const abort = new AbortController();
  const io = { out: writer(process.stdout), err: writer(process.stderr), signal: abort.signal, now: () => new Date() };
  if (!entry.store) return (await entry.run(command, io)) ?? 0;

  const [{ loadConfig }, { missingStore }] = await Promise.all([import('#kernel'), import('./data-dir-check.js')]);
  const config = loadConfig();
  const refusal = missingStore(config, create);
  if (refusal !== undefined) {
    process.stderr.write(`${refusal}\n`);
    return 1;
  }
  // Loaded only now, so usage errors, help and a wrong data directory answer at once.
  const [{ NestFactory }, { AppLogger }, { CliModule }] = await Promise.all([
    import('@nestjs/core'),
    import('#http'),
    import('#runtime'),
  ]);
  // Quiet by default: stdout is the command's output, logs go to stderr.
  const logLevel = process.env.LOG_LEVEL ? config.logLevel : 'warn';
  let commitListener: ((info: CommitInfo) => void) | undefined;
  const app = await NestFactory.createApplicationContext(
    CliModule.forRoot(config, { logLevel, onCommit: (info) => commitListener?.(info) }),
    { bufferLogs: true, abortOnError: false },
  );
  app.useLogger(app.get(AppLogger));
  await app.init();
  const onSignal = () => abort.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
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
      process.stderr.write(`svc: ${error.message}\n\n${usageFor(error, argv)}\n`);
      return 2;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await app.close();
  }
}

// `svc events tail | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
});

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // ConfigError's message is already the one line naming the variable.
    const message =
      error instanceof Error
        ? error.name === 'ConfigError'
          ? error.message
          : `svc: ${error.message}`
        : `svc: ${String(error)}`;
    process.stderr.write(`${message.split('\n')[0]}\n`);
    process.exit(1);
  },
);
