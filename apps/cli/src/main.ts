#!/usr/bin/env node
import 'reflect-metadata';
import * as nodeModule from 'node:module';
import { runCli } from './run-cli.js';

// Node 22.1+ keeps the compiled code of the ~2,000 modules a store command loads on disk (in the
// OS temp directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off): later starts skip compiling.
// Node 20 has no such cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// `svc events tail | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
});

void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onSignal(abort) {
    process.once('SIGINT', abort);
    process.once('SIGTERM', abort);
    return () => {
      process.off('SIGINT', abort);
      process.off('SIGTERM', abort);
    };
  },
}).then((code) => process.exit(code));
