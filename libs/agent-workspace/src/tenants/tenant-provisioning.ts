import { Inject, Injectable } from '@nestjs/common';
import {
  APP_CONFIG,
  type AppConfig,
  AppError,
  CLOCK,
  type Clock,
  Errors,
  ID_GENERATOR,
  type IdGenerator,
} from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { accountHasTenant, AgentAccounts, type TenantBindingReason } from '#agent-billing';
import { OBJECTIVE_PACK } from '#agent-contract';
import { type TenantCommand, tenantDecider, type TenantState } from '../tenant.decider.js';
import { tenantStream } from '../workspace.events.js';

export interface EnsuredTenant {
  tenantId: string;
  accountId: string;
  /** False when the account held this tenant already (a repeated purchase, a redelivered event). */
  created: boolean;
  state: Extract<TenantState, { status: 'active' }>;
}

/**
 * Puts a tenant on an existing agent account, so the account's keys are tenant-bound and its
 * credits are the tenant's. The account is bound first (its stream decides: one tenant per
 * account, so two concurrent fulfilments of one payment agree on one tenant id), then the tenant
 * stream is written; a crash between the two is finished by the next attempt, which finds the
 * binding and writes the missing tenant.
 */
@Injectable()
export class TenantProvisioning {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly accounts: AgentAccounts,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Opens a tenant's own agent account (origin `tenant`, its opening event names the tenant, so
   * its keys reach the workspace), then the tenant on it. Safe to run again with the same ids.
   */
  async openTenantAccount(p: {
    tenantId: string;
    accountId: string;
    name: string;
    source: string;
  }): Promise<EnsuredTenant> {
    try {
      await this.accounts.decide(p.accountId, {
        type: 'OpenAgentAccount',
        accountId: p.accountId,
        origin: 'tenant',
        environment: this.config.env,
        contactEmail: null,
        agentName: p.name,
        useCase: 'enterprise workspace',
        objective: 'enterprise',
        packId: OBJECTIVE_PACK.enterprise,
        source: p.source,
        sourceRef: null,
        tenantId: p.tenantId,
        now: this.clock.now(),
      });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'ACCOUNT_EXISTS')) throw error;
    }
    const state = await this.decide(p.tenantId, {
      type: 'CreateTenant',
      tenantId: p.tenantId,
      name: p.name,
      ownerAccountId: p.accountId,
      now: this.clock.now(),
    });
    return { tenantId: p.tenantId, accountId: p.accountId, created: true, state };
  }

  /**
   * The account's tenant, made when it has none. `reuse: false` refuses an account bound already
   * (409 ACCOUNT_HAS_TENANT: an operator asked for a new tenant).
   */
  async ensureTenant(
    accountId: string,
    p: { name: string; reason: TenantBindingReason; reuse: boolean },
  ): Promise<EnsuredTenant> {
    const account = await this.accounts.load(accountId);
    if (account.status !== 'open') throw Errors.notFound('No agent account with this id.', 'ACCOUNT_NOT_FOUND');
    if (account.tenantId && !p.reuse) throw accountHasTenant(account.tenantId);
    let tenantId = account.tenantId;
    let created = false;
    if (!tenantId) {
      const candidate = this.ids.next('tn');
      try {
        await this.accounts.decide(accountId, {
          type: 'BindTenant',
          tenantId: candidate,
          reason: p.reason,
          now: this.clock.now(),
        });
        tenantId = candidate;
        created = true;
      } catch (error) {
        // Another fulfilment of the same payment bound it first: use its tenant.
        if (!(error instanceof AppError && error.code === 'ACCOUNT_HAS_TENANT')) throw error;
        tenantId = String(error.extra?.tenant_id);
      }
    }
    const state = await this.decide(tenantId, {
      type: 'CreateTenant',
      tenantId,
      name: p.name,
      ownerAccountId: accountId,
      now: this.clock.now(),
    });
    return { tenantId, accountId, created, state };
  }

  /** Decides on the tenant's stream; creating a tenant that exists answers its state. */
  async decide(tenantId: string, command: TenantCommand): Promise<Extract<TenantState, { status: 'active' }>> {
    const stream = tenantStream(tenantId);
    if (command.type === 'CreateTenant') {
      const { state } = await loadState(this.events, stream, tenantDecider);
      if (state.status === 'active') return state;
    }
    try {
      const { state } = await decideAndAppend(this.events, stream, tenantDecider, command);
      if (state.status !== 'active') throw new Error(`tenant ${tenantId} is not active after ${command.type}`);
      return state;
    } catch (error) {
      if (!(command.type === 'CreateTenant' && error instanceof AppError && error.code === 'TENANT_EXISTS'))
        throw error;
      const { state } = await loadState(this.events, stream, tenantDecider);
      if (state.status !== 'active') throw error;
      return state;
    }
  }

  /** Records the end of a due pilot; the global position of the event, or null when nothing was due. */
  async endPilot(tenantId: string, now: Date): Promise<number | null> {
    return (await decideAndAppend(this.events, tenantStream(tenantId), tenantDecider, { type: 'EndPilot', now }))
      .position;
  }

  async load(tenantId: string): Promise<TenantState> {
    return (await loadState(this.events, tenantStream(tenantId), tenantDecider)).state;
  }
}
