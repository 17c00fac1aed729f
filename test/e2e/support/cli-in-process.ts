import { runCli, type CliStream } from '../../../apps/cli/src/run-cli.js';
import { childEnv, type Finished } from './processes.js';

function capture(): CliStream & { text: string } {
  return {
    text: '',
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
    once: () => undefined,
  };
}

/**
 * Runs one `svc` command in this process, through the same runCli as the built main, with the
 * environment a child would get: the command, its exit code, stdout and stderr are the child's,
 * without the ~1.5 s of a process start (ADR 0097). For the commands whose process behaviour
 * (exit status, streams, signals, npm) is not what a test checks; cli.e2e keeps real starts for that.
 */
export async function svcInProcess(args: string[], env: Record<string, string>): Promise<Finished> {
  const stdout = capture();
  const stderr = capture();
  const code = await runCli(args, { stdout, stderr, env: childEnv(env), onSignal: () => () => undefined });
  return { code, signal: null, stdout: stdout.text, stderr: stderr.text };
}
