import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { publicBaseUrl, type RequestOrigin } from '#http';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { AgentAuthenticator, type AgentRequest, GetAccountWorkspaceQuery, PATHS } from '#agent-contract';
import type { AgentAccountStatusProvider, AgentStatusRequest } from '../agent-status.hook.js';
import {
  AgentAccounts,
  autopayView,
  CreditsService,
  ledgerEntryView,
  PAYMENT_PROVIDER,
  type PaymentProvider,
} from '#agent-billing';

const RECENT_ENTRIES = 20;
const usd = (cents: number) => cents / 100;

/**
 * The keyed part of GET /api/v1/agents/status (the route belongs to the catalog feature, which
 * looks this provider up by AGENT_ACCOUNT_STATUS): the account, balance_usd (fresh from the
 * ledger), the latest ledger entries with a link to the whole ledger, the autopay state and the
 * account's workspace (plan, pilot dates, read-only or not).
 */
@Injectable()
export class AccountStatusService implements AgentAccountStatusProvider {
  constructor(
    private readonly auth: AgentAuthenticator,
    private readonly accounts: AgentAccounts,
    private readonly credits: CreditsService,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: QueryBus,
  ) {}

  async accountStatus(request: AgentStatusRequest): Promise<Record<string, unknown>> {
    const agent = await this.auth.require(request as AgentRequest);
    const baseUrl = publicBaseUrl(request as RequestOrigin, this.config);
    const [account, { state }, entries, workspace] = await Promise.all([
      this.accounts.load(agent.accountId),
      this.credits.state(agent.accountId, { fresh: true }),
      this.credits.recentEntries(agent.accountId, RECENT_ENTRIES),
      this.queries.execute(new GetAccountWorkspaceQuery(agent.accountId, baseUrl)),
    ]);
    const open = account.status === 'open' ? account : null;
    return {
      authenticated: true,
      account: {
        id: agent.accountId,
        key_id: agent.keyId,
        origin: open?.origin ?? null,
        opened_at: open?.openedAt ?? null,
        agent_name: open?.agentName ?? null,
        contact_email: open?.contactEmail ?? null,
        objective: open?.objective ?? null,
        pack_id: open?.packId ?? null,
        payment_provider: this.provider.name,
        payment_methods: (open?.paymentMethods ?? []).map((m) => ({
          id: m.id,
          brand: m.brand,
          last4: m.last4,
          attached_at: m.attachedAt,
        })),
      },
      balance_usd: usd(state.balanceCents),
      purchased_usd: usd(state.purchasedCents),
      granted_usd: usd(state.grantedCents),
      charged_usd: usd(state.chargedCents),
      refunded_usd: usd(state.refundedCents),
      paid_calls: state.charges,
      recent_ledger: entries.map((entry) => ledgerEntryView(entry)),
      // The whole ledger, oldest first, with the balance after each entry (GET /billing/ledger).
      ledger_url: `${baseUrl}${PATHS.ledger}`,
      autopay: { ...autopayView(state), threshold_usd: usd(this.config.autopayThresholdCents ?? 1000) },
      // The tenant workspace of the account (a paid pack_2499 or pack_10000, or an operator's), null without one.
      workspace,
    };
  }
}
