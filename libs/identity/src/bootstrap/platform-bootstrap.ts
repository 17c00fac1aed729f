import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Server } from 'node:net';
import { HttpAdapterHost } from '@nestjs/core';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { ProjectionRunner } from '#projections';
import { ACCOUNTS_PROJECTION } from '../accounts/accounts.projection.js';
import { accountDecider } from '../accounts/account.decider.js';
import { accountStream } from '../accounts/account.events.js';
import { CreateAccountCommand } from '../accounts/commands/create-account/create-account.command.js';
import { CreateAccountHandler } from '../accounts/commands/create-account/create-account.handler.js';
import { apiKeyDecider } from '#access';
import { apiKeyStream } from '#access';
import { API_KEYS_PROJECTION } from '#access';
import { CreateApiKeyCommand } from '#access';
import { CreateApiKeyHandler } from '#access';
import { RevokeApiKeyCommand } from '#access';
import { RevokeApiKeyHandler } from '#access';
import { bootstrapDecider } from './bootstrap.decider.js';
import { BOOTSTRAP_STREAM } from './bootstrap.events.js';

export const BOOTSTRAP_LINE_PREFIX = 'Bootstrap admin API key: ';

export type BootstrapOutcome =
  | { created: true; accountId: string; keyId: string; key: string }
  | { created: false; state: 'completed' | 'incomplete'; accountId: string; keyId: string };

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

/**
 * D4: on a fresh store, one Team account with an admin key, the key printed once on stdout on a
 * line of its own (`Bootstrap admin API key: svc_test_…`).
 *
 * Race-free across processes: the process whose append creates the `system-bootstrap` stream
 * (expected revision no_stream) owns the bootstrap, with the account and key ids fixed in that
 * claim; every other process and every later start sees the claim and does nothing.
 *
 * Failures: while the store is unreachable the api still starts and retries in the background.
 * The owner resumes its own claim (an account or key already appended is not appended again; a
 * key whose append went through but whose answer was lost is revoked and replaced, since its
 * value is unknown), and once the line is printed only the completion is retried. A process
 * killed between the claim and the printed line leaves the claim incomplete: the next start
 * warns with the ids and the CLI command that issues an admin key. It never redoes the
 * bootstrap by itself, as it cannot tell a dead owner from a slow one.
 *
 * The line is printed once the key's read models have it (bounded wait), so the key works on
 * its first request.
 *
 * It starts once the HTTP server listens, so a start that fails to bind creates nothing.
 *
 * Only a serving app bootstraps (the worker and the CLI have no HTTP adapter);
 * SVC_BOOTSTRAP=false turns it off.
 */
@Injectable()
export class PlatformBootstrap implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Bootstrap');
  /** The claim this process made, while it is not completed. */
  private owned: { accountId: string; keyId: string } | undefined;
  /** The key this process printed, while the completion is not recorded. */
  private printed: { keyId: string; key: string } | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private inFlight: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'bootstrap' | 'readYourWritesTimeoutMs'>,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly createAccount: CreateAccountHandler,
    private readonly createApiKey: CreateApiKeyHandler,
    private readonly revokeApiKey: RevokeApiKeyHandler,
    private readonly runner: ProjectionRunner,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.bootstrap || !this.adapterHost.httpAdapter) return;
    // Nest initialises the modules before it binds the port: a start that then fails (port in
    // use) must not have created the account nor printed a key that nobody can use yet. So the
    // bootstrap waits for the server's `listening` event (never emitted if the bind fails).
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server | undefined;
    if (!server || server.listening) {
      void this.attempt(RETRY_FIRST_MS);
      return;
    }
    server.once('listening', () => {
      if (!this.stopped) void this.attempt(RETRY_FIRST_MS);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.inFlight?.catch(() => undefined);
  }

  /** Claims and performs the bootstrap if the store has none; `print` gets the key line. */
  async run(
    print: (line: string) => void = (line) => void process.stdout.write(`${line}\n`),
  ): Promise<BootstrapOutcome> {
    if (!this.owned) {
      const accountId = this.ids.next('acct');
      const keyId = this.ids.next('key');
      const claim = await decideAndAppend(this.events, BOOTSTRAP_STREAM, bootstrapDecider, {
        type: 'ClaimBootstrap',
        accountId,
        keyId,
        now: this.clock.now(),
      });
      if (claim.events.length === 0) return this.notOurs(claim.state);
      this.owned = { accountId, keyId };
    }
    const { accountId } = this.owned;
    if (!this.printed) {
      const issued = await this.issueKey(this.owned);
      await this.visible(issued.position);
      this.printed = { keyId: issued.keyId, key: issued.key };
      print(`${BOOTSTRAP_LINE_PREFIX}${this.printed.key}`);
    }
    const { keyId, key } = this.printed;
    await decideAndAppend(this.events, BOOTSTRAP_STREAM, bootstrapDecider, {
      type: 'CompleteBootstrap',
      keyId,
      now: this.clock.now(),
    });
    this.owned = undefined;
    this.printed = undefined;
    this.logger.log(`bootstrap: Team account ${accountId} with admin key ${keyId} created`);
    return { created: true, accountId, keyId, key };
  }

  private async attempt(delayMs: number): Promise<void> {
    try {
      const run = this.run();
      this.inFlight = run;
      await run;
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn(
        `bootstrap failed (${error instanceof Error ? error.message : String(error)}); retrying in ${delayMs} ms`,
      );
      this.retryTimer = setTimeout(() => void this.attempt(Math.min(delayMs * 2, RETRY_MAX_MS)), delayMs);
      this.retryTimer.unref();
    }
  }

  private notOurs(state: (typeof bootstrapDecider)['initialState']): BootstrapOutcome {
    if (state.status === 'unclaimed') throw new Error('bootstrap claim neither made nor found');
    if (state.status === 'completed')
      this.logger.log(`bootstrap: this store has one already (account ${state.accountId}); nothing to do`);
    if (state.status === 'claimed') {
      this.logger.warn(
        `The bootstrap of this store (account ${state.accountId}, key ${state.keyId}) was claimed but not completed. ` +
          `If no process printed its key, issue an admin key with: npm run svc -- keys create --account ${state.accountId} --scopes admin --name admin ` +
          `(or, if that account does not exist: npm run svc -- accounts create --plan team, then keys create for the new account)`,
      );
    }
    return {
      created: false,
      state: state.status === 'completed' ? 'completed' : 'incomplete',
      accountId: state.accountId,
      keyId: state.keyId,
    };
  }

  /**
   * Waits (bounded by SVC_READ_YOUR_WRITES_TIMEOUT_MS) until the account and key read models have
   * the key, so the printed key works on its first request, also when the projections run in
   * the worker process. If they do not catch up in time (no worker running yet), the key is
   * printed anyway, with a warning: it works as soon as they do.
   */
  private async visible(position: number): Promise<void> {
    try {
      await this.runner.waitFor(position, {
        projections: [ACCOUNTS_PROJECTION, API_KEYS_PROJECTION],
        timeoutMs: this.config.readYourWritesTimeoutMs,
      });
    } catch (error) {
      this.logger.warn(
        `the bootstrap key is printed before the read models have it (${error instanceof Error ? error.message : String(error)}); ` +
          'it works once the projections catch up (with SVC_RUN_PROJECTIONS=false: once the worker runs)',
      );
    }
  }

  /** The account (unless an earlier attempt appended it) and a fresh admin key whose value we hold. */
  private async issueKey({
    accountId,
    keyId,
  }: {
    accountId: string;
    keyId: string;
  }): Promise<{ keyId: string; key: string; position: number }> {
    const account = await loadState(this.events, accountStream(accountId), accountDecider);
    if (account.state.status === 'absent') {
      await this.createAccount.execute(
        new CreateAccountCommand({ name: 'Bootstrap account', plan: 'team', accountId }, { readYourWrites: false }),
      );
    }
    let id = keyId;
    const earlier = await loadState(this.events, apiKeyStream(keyId), apiKeyDecider);
    if (earlier.state.status !== 'absent') {
      // An earlier attempt's append went through but its answer (and the value) was lost.
      if (earlier.state.status === 'active') {
        await this.revokeApiKey.execute(
          new RevokeApiKeyCommand({ keyId, requester: { operator: true } }, { readYourWrites: false }),
        );
      }
      id = this.ids.next('key');
    }
    const created = await this.createApiKey.execute(
      new CreateApiKeyCommand(
        {
          accountId,
          keyId: id,
          name: 'Bootstrap admin key',
          scopes: ['admin'],
          surface: 'platform',
          creator: { operator: true },
        },
        { readYourWrites: false },
      ),
    );
    return { keyId: created.id, key: created.key, position: created.position };
  }
}
