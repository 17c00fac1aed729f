import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from '#kernel';
import type { CommitInfo } from '#projections';
import type { CommandArgs } from './command-options.js';
import { accountsCreate, accountsPlan } from './commands/accounts.args.js';
import { auditCredits, auditDeliveries } from './commands/audit.args.js';
import { companiesGenerate, companiesImport } from './commands/companies.args.js';
import { creditsGrant } from './commands/credits.args.js';
import { eventsTail } from './commands/events-tail.args.js';
import { keysCreate, keysRevoke } from './commands/keys.args.js';
import { leadsConvert, leadsList, type LeadsCliCommand } from './commands/leads.args.js';
import { oauthClientsCreate } from './commands/oauth-clients.args.js';
import { projectionsRebuild, projectionsStatus } from './commands/projections.args.js';
import { secretsReseal } from './commands/secrets.args.js';
import { usersCreate, usersResetPassword, type UsersCliCommand } from './commands/users.args.js';
import { workspacesCreate, workspacesKeysCreate, type WorkspacesCliCommand } from './commands/workspaces.args.js';

type Write = (line: string) => Promise<void>;

/** What every command gets: stdout for its output, stderr for the rest, Ctrl-C, the time. */
export interface CliIo {
  readonly out: Write;
  readonly err: Write;
  readonly signal: AbortSignal;
  now(): Date;
}

/** What a command on the store gets besides: the application context on it (no HTTP). */
export interface StoreContext extends CliIo {
  readonly app: INestApplicationContext;
  readonly config: AppConfig;
  /** Hears the projection runner's commits (rebuild progress). */
  onCommit(listener: (info: CommitInfo) => void): void;
}

/**
 * One command of `svc`: its words, usage entry and parser (the light half, in its `*.args.ts`),
 * and its handler, which imports what it needs when it runs. Returns the exit code (0 if void).
 */
export type CommandEntry = CommandArgs<{ kind: string }> &
  (
    | { readonly store: false; run(command: { kind: string }, io: CliIo): Promise<number | void> }
    | { readonly store: true; run(command: { kind: string }, context: StoreContext): Promise<number | void> }
  );

function alone<C extends { kind: string }>(
  args: CommandArgs<C>,
  run: (command: C, io: CliIo) => Promise<number | void>,
): CommandEntry {
  return { ...args, store: false, run: run as CommandEntry['run'] } as CommandEntry;
}

function onStore<C extends { kind: string }>(
  args: CommandArgs<C>,
  run: (command: C, context: StoreContext) => Promise<number | void>,
): CommandEntry {
  return { ...args, store: true, run: run as CommandEntry['run'] } as CommandEntry;
}

async function commandBus(app: INestApplicationContext) {
  const { CommandBus } = await import('@nestjs/cqrs');
  return app.get(CommandBus);
}

/** The commands, in the order of the usage text. Help and "did you mean" are derived from it. */
export const COMMANDS: readonly CommandEntry[] = [
  onStore(projectionsStatus, async (_, { app, out }) => {
    const [{ ProjectionRunner, OWNERSHIP_LEASES }, projections] = await Promise.all([
      import('#projections'),
      import('./commands/projections.command.js'),
    ]);
    await projections.projectionsStatus(app.get(ProjectionRunner), app.get(OWNERSHIP_LEASES), out);
  }),
  onStore(projectionsRebuild, async (command, { app, out, err, onCommit }) => {
    const [{ ProjectionRunner }, { EVENT_STORE }, projections] = await Promise.all([
      import('#projections'),
      import('#eventstore'),
      import('./commands/projections.command.js'),
    ]);
    const head = await app.get(EVENT_STORE).headPosition();
    onCommit(
      projections.rebuildProgress(
        (line) => void err(line),
        () => head,
      ),
    );
    await projections.rebuildProjections(app.get(ProjectionRunner), command.name, out);
  }),
  onStore(eventsTail, async (command, { app, out, signal }) => {
    const [{ EVENT_STORE }, tail] = await Promise.all([
      import('#eventstore'),
      import('./commands/events-tail.command.js'),
    ]);
    await tail.tailEvents(app.get(EVENT_STORE), command, out, signal);
  }),
  onStore(accountsCreate, async (command, { app, out }) => {
    const accounts = await import('./commands/accounts.command.js');
    await accounts.runAccounts(await commandBus(app), command, out);
  }),
  onStore(accountsPlan, async (command, { app, out }) => {
    const accounts = await import('./commands/accounts.command.js');
    await accounts.runAccounts(await commandBus(app), command, out);
  }),
  onStore(keysCreate, async (command, { app, out }) => {
    const keys = await import('./commands/keys.command.js');
    await keys.runKeys(await commandBus(app), command, out);
  }),
  onStore(keysRevoke, async (command, { app, out }) => {
    const keys = await import('./commands/keys.command.js');
    await keys.runKeys(await commandBus(app), command, out);
  }),
  ...[usersCreate, usersResetPassword].map((args: CommandArgs<UsersCliCommand>) =>
    onStore(args, async (command, { app, out, config }) => {
      const users = await import('./commands/users.command.js');
      await users.runUsers(await commandBus(app), command, out, config.publicUrl ?? `http://localhost:${config.port}`);
    }),
  ),
  onStore(oauthClientsCreate, async (command, { app, out }) => {
    const oauthClients = await import('./commands/oauth-clients.command.js');
    await oauthClients.runOAuthClients(await commandBus(app), command, out);
  }),
  onStore(creditsGrant, async (command, { app, out }) => {
    const credits = await import('./commands/credits.command.js');
    await credits.runCredits(await commandBus(app), command, out);
  }),
  ...[workspacesCreate, workspacesKeysCreate].map((args: CommandArgs<WorkspacesCliCommand>) =>
    onStore(args, async (command, { app, out }) => {
      const workspaces = await import('./commands/workspaces.command.js');
      await workspaces.runWorkspaces(await commandBus(app), command, out);
    }),
  ),
  ...[leadsList, leadsConvert].map((args: CommandArgs<LeadsCliCommand>) =>
    onStore(args, async (command, { app, out }) => {
      const [{ CommandBus, QueryBus }, leads] = await Promise.all([
        import('@nestjs/cqrs'),
        import('./commands/leads.command.js'),
      ]);
      await leads.runLeads({ commands: app.get(CommandBus), queries: app.get(QueryBus) }, command, out);
    }),
  ),
  // Rejected records are skipped, not fatal: the exit code says some were.
  onStore(companiesImport, async (command, { app, out, err, signal }) => {
    const [{ CompanyImporter }, companies] = await Promise.all([
      import('#agent-ventures'),
      import('./commands/companies.command.js'),
    ]);
    return companies.importCompanies(app.get(CompanyImporter, { strict: false }), command, out, err, signal);
  }),
  alone(companiesGenerate, async (command, { out, now }) => {
    const companies = await import('./commands/companies.command.js');
    await companies.generateCompanies(command, out, now());
  }),
  // A replay that found a disagreement or a schedule break exits 1, like a failed reseal.
  onStore(auditCredits, async (command, { app, out, err, now }) => {
    const [{ EVENT_STORE }, { DOCUMENT_STORE }, audit] = await Promise.all([
      import('#eventstore'),
      import('#documents'),
      import('./commands/audit.command.js'),
    ]);
    return audit.auditCreditsCommand(
      { events: app.get(EVENT_STORE), documents: app.get(DOCUMENT_STORE) },
      command,
      { out, err },
      now(),
    );
  }),
  onStore(auditDeliveries, async (command, { app, out, err, config }) => {
    const [{ EVENT_STORE }, { WebhookChannels }, audit] = await Promise.all([
      import('#eventstore'),
      import('#webhooks'),
      import('./commands/audit.command.js'),
    ]);
    const channels = app
      .get(WebhookChannels, { strict: false })
      .all()
      .map((c) => c.channel);
    return audit.auditDeliveriesCommand(
      app.get(EVENT_STORE),
      channels,
      command,
      { out, err },
      config.webhookRetryScale,
    );
  }),
  // Secrets that would not open stay as they were: the exit code says so.
  onStore(secretsReseal, async (_, { app, out }) => {
    const { WebhookSecrets } = await import('#webhooks');
    const summary = await app.get(WebhookSecrets, { strict: false }).reseal();
    await out(JSON.stringify({ resealed: summary.resealed, current: summary.current, failed: summary.failed }));
    return summary.failed.length > 0 ? 1 : 0;
  }),
];
