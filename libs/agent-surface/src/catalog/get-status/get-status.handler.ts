import { Inject } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { AGENT_ACCOUNT_STATUS, type AgentAccountStatusProvider, hasAgentCredential } from '../agent-status.hook.js';
import { type AgentEnvelope, CatalogContextProvider } from '#agent-contract';
import { buildPublicStatus } from '../status.documents.js';
import { GetStatusQuery } from './get-status.query.js';

const PING_TIMEOUT_MS = 1000;

/**
 * The public status (with the stores' health, pinged within a second) merged with the account
 * part of the accounts feature when a key is sent. The provider is looked up app-wide once: the
 * catalogue does not depend on the accounts feature, which registers it when present.
 */
@QueryHandler(GetStatusQuery)
export class GetStatusHandler implements IQueryHandler<GetStatusQuery, AgentEnvelope<unknown>> {
  private accountStatus?: AgentAccountStatusProvider | null;

  constructor(
    private readonly catalog: CatalogContextProvider,
    private readonly moduleRef: ModuleRef,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
  ) {}

  async execute({ request }: GetStatusQuery): Promise<AgentEnvelope<unknown>> {
    const ctx = this.catalog.forRequest(request);
    const account = hasAgentCredential(request.headers)
      ? await this.accountStatusProvider()?.accountStatus(request)
      : undefined;
    const data = { ...buildPublicStatus(ctx, { storesUp: await this.storesUp() }), ...(account ?? {}) };
    return this.catalog.envelope(data);
  }

  /** The accounts feature's provider; null when none is registered. */
  private accountStatusProvider(): AgentAccountStatusProvider | null {
    if (this.accountStatus === undefined) {
      try {
        this.accountStatus = this.moduleRef.get<AgentAccountStatusProvider>(AGENT_ACCOUNT_STATUS, { strict: false });
      } catch {
        this.accountStatus = null;
      }
    }
    return this.accountStatus;
  }

  private async storesUp(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([Promise.all([this.events.ping(), this.documents.ping()]), timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
