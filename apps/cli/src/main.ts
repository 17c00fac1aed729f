#!/usr/bin/env node
import 'reflect-metadata';
import { parseCliArgs, USAGE, usageFor, UsageError } from './cli-args.js';

/** Writes one line to stdout, honouring back-pressure. */
function writeLine(line: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(`${line}\n`)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

async function main(args: string[]): Promise<number> {
  // `--create` is the CLI's own option, taken before the command's arguments are parsed.
  const create = args.includes('--create');
  const argv = args.filter((a) => a !== '--create');
  let command;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`svc: ${error.message}\n\n${usageFor(error, argv)}\n`);
      return 2;
    }
    throw error;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command.kind === 'companies-generate') {
    // Needs no store: print and leave.
    const companies = await import('./commands/companies.command.js');
    await companies.generateCompanies(command, writeLine, new Date());
    return 0;
  }
  const [{ loadConfig }, { missingStore }] = await Promise.all([import('#kernel'), import('./data-dir-check.js')]);
  const config = loadConfig();
  const refusal = missingStore(config, create);
  if (refusal !== undefined) {
    process.stderr.write(`${refusal}\n`);
    return 1;
  }
  // Loaded only now, so usage errors, help and a wrong data directory answer at once.
  const [
    { NestFactory },
    { AppLogger },
    { EVENT_STORE },
    { ProjectionRunner, OWNERSHIP_LEASES },
    { CliModule },
    tail,
    projections,
  ] = await Promise.all([
    import('@nestjs/core'),
    import('#http'),
    import('#eventstore'),
    import('#projections'),
    import('#runtime'),
    import('./commands/events-tail.command.js'),
    import('./commands/projections.command.js'),
  ]);
  // Quiet by default: stdout is the command's output, logs go to stderr.
  const logLevel = process.env.LOG_LEVEL ? config.logLevel : 'warn';
  // Rebuild progress goes to stderr, so stdout stays the command's own lines.
  let head = 0;
  const onCommit =
    command.kind === 'projections-rebuild'
      ? projections.rebuildProgress(
          (line) => void process.stderr.write(`${line}\n`),
          () => head,
        )
      : undefined;
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, { logLevel, onCommit }), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(AppLogger));
  await app.init();
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    switch (command.kind) {
      case 'events-tail':
        await tail.tailEvents(app.get(EVENT_STORE), command, writeLine, abort.signal);
        break;
      case 'projections-status':
        await projections.projectionsStatus(app.get(ProjectionRunner), app.get(OWNERSHIP_LEASES), writeLine);
        break;
      case 'projections-rebuild':
        head = await app.get(EVENT_STORE).headPosition();
        await projections.rebuildProjections(app.get(ProjectionRunner), command.name, writeLine);
        break;
      case 'accounts-create':
      case 'accounts-plan': {
        const [{ CommandBus }, accounts] = await Promise.all([
          import('@nestjs/cqrs'),
          import('./commands/accounts.command.js'),
        ]);
        await accounts.runAccounts(app.get(CommandBus), command, writeLine);
        break;
      }
      case 'companies-import': {
        const [{ CompanyImporter }, companies] = await Promise.all([
          import('#agent-ventures'),
          import('./commands/companies.command.js'),
        ]);
        const writeError = (line: string) =>
          new Promise<void>((resolve) =>
            process.stderr.write(`${line}\n`) ? resolve() : process.stderr.once('drain', resolve),
          );
        // Rejected records are skipped, not fatal: the exit code says some were.
        return await companies.importCompanies(
          app.get(CompanyImporter, { strict: false }),
          command,
          writeLine,
          writeError,
          abort.signal,
        );
      }
      case 'secrets-reseal': {
        const { WebhookSecrets } = await import('#webhooks');
        const summary = await app.get(WebhookSecrets, { strict: false }).reseal();
        await writeLine(
          JSON.stringify({ resealed: summary.resealed, current: summary.current, failed: summary.failed }),
        );
        // Secrets that would not open stay as they were: say so in the exit code.
        if (summary.failed.length > 0) return 1;
        break;
      }
      case 'keys-create':
      case 'keys-revoke': {
        const [{ CommandBus }, keys] = await Promise.all([
          import('@nestjs/cqrs'),
          import('./commands/keys.command.js'),
        ]);
        await keys.runKeys(app.get(CommandBus), command, writeLine);
        break;
      }
      case 'users-create':
      case 'users-reset-password': {
        const [{ CommandBus }, users] = await Promise.all([
          import('@nestjs/cqrs'),
          import('./commands/users.command.js'),
        ]);
        await users.runUsers(
          app.get(CommandBus),
          command,
          writeLine,
          config.publicUrl ?? `http://localhost:${config.port}`,
        );
        break;
      }
      case 'oauth-clients-create': {
        const [{ CommandBus }, oauthClients] = await Promise.all([
          import('@nestjs/cqrs'),
          import('./commands/oauth-clients.command.js'),
        ]);
        await oauthClients.runOAuthClients(app.get(CommandBus), command, writeLine);
        break;
      }
      case 'credits-grant': {
        const [{ CommandBus }, credits] = await Promise.all([
          import('@nestjs/cqrs'),
          import('./commands/credits.command.js'),
        ]);
        await credits.runCredits(app.get(CommandBus), command, writeLine);
        break;
      }
      case 'workspaces-create':
      case 'workspaces-keys-create': {
        const [{ CommandBus }, workspaces] = await Promise.all([
          import('@nestjs/cqrs'),
          import('./commands/workspaces.command.js'),
        ]);
        await workspaces.runWorkspaces(app.get(CommandBus), command, writeLine);
        break;
      }
      case 'leads-list':
      case 'leads-convert': {
        const [{ CommandBus, QueryBus }, leads] = await Promise.all([
          import('@nestjs/cqrs'),
          import('./commands/leads.command.js'),
        ]);
        await leads.runLeads({ commands: app.get(CommandBus), queries: app.get(QueryBus) }, command, writeLine);
        break;
      }
      case 'audit-credits':
      case 'audit-deliveries': {
        const [{ DOCUMENT_STORE }, { WebhookChannels }, audit] = await Promise.all([
          import('#documents'),
          import('#webhooks'),
          import('./commands/audit.command.js'),
        ]);
        const events = app.get(EVENT_STORE);
        const writeError = (line: string) =>
          new Promise<void>((resolve) =>
            process.stderr.write(`${line}\n`) ? resolve() : process.stderr.once('drain', resolve),
          );
        // A replay that found a disagreement or a schedule break exits 1, like a failed reseal.
        return command.kind === 'audit-credits'
          ? await audit.auditCreditsCommand(
              { events, documents: app.get(DOCUMENT_STORE) },
              command,
              writeLine,
              writeError,
              new Date(),
            )
          : await audit.auditDeliveriesCommand(
              events,
              app
                .get(WebhookChannels, { strict: false })
                .all()
                .map((c) => c.channel),
              command,
              writeLine,
              writeError,
              config.webhookRetryScale,
            );
      }
    }
    return 0;
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
