import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { AgentAuthenticator, type AgentRequest } from '../../auth/agent-auth.js';
import type { AgentAccountStatusProvider, AgentStatusRequest } from '../../catalog/agent-status.hook.js';
import { autopayView } from '../../credits/credits.decider.js';
import type { CreditsEvent } from '../../credits/credits.events.js';
import { CreditsService } from '../../credits/credits.service.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../../payments/payment-provider.port.js';
import { AgentAccounts } from '../agent-accounts.js';

const RECENT_ENTRIES = 20;
const usd = (cents: number) => cents / 100;

/** One ledger entry as /agents/status shows it: signed amount in USD, newest first. */
export function ledgerEntryView(entry: {
  revision: number;
  recorded_at: string;
  event: CreditsEvent;
}): Record<string, unknown> {
  const e = entry.event;
  const base = { sequence: entry.revision, type: e.type, recorded_at: entry.recorded_at };
  switch (e.type) {
    case 'CreditsPurchased':
      return {
        ...base,
        amount_usd: usd(e.data.credits_cents),
        paid_usd: usd(e.data.amount_cents),
        pack_id: e.data.pack_id,
        source: e.data.source,
        provider: e.data.provider,
        payment_reference: e.data.payment_reference,
        at: e.data.purchased_at,
      };
    case 'CreditsGranted':
      return {
        ...base,
        amount_usd: usd(e.data.credits_cents),
        reference: e.data.reference,
        granted_by: e.data.granted_by,
        key_id: e.data.key_id,
        at: e.data.granted_at,
      };
    case 'MeterCharged':
      return {
        ...base,
        amount_usd: -usd(e.data.price_cents),
        meter: e.data.meter,
        request_id: e.data.request_id,
        key_id: e.data.key_id,
        ...(e.data.charge_key !== undefined ? { charge_key: e.data.charge_key } : {}),
        at: e.data.charged_at,
      };
    case 'MeterChargeSettled':
      // A refunded charge is a credit entry; a kept one moves no money (the charge was the entry).
      return {
        ...base,
        amount_usd: usd(e.data.refunded_cents),
        kind: e.data.refunded_cents > 0 ? 'refund' : 'kept',
        meter: e.data.meter,
        charge_key: e.data.charge_key,
        price_usd: usd(e.data.price_cents),
        reason: e.data.reason,
        at: e.data.settled_at,
      };
    case 'AutopayEnabled':
      return {
        ...base,
        amount_usd: 0,
        pack_id: e.data.pack_id,
        payment_method_id: e.data.payment_method_id,
        at: e.data.enabled_at,
      };
    case 'AutopayDisabled':
      return { ...base, amount_usd: 0, reason: e.data.reason, at: e.data.disabled_at };
    case 'AutopayTriggered':
      return {
        ...base,
        amount_usd: 0,
        attempt_id: e.data.attempt_id,
        pack_id: e.data.pack_id,
        balance_usd: usd(e.data.balance_cents),
        at: e.data.triggered_at,
      };
    case 'AutopayFailed':
      return { ...base, amount_usd: 0, attempt_id: e.data.attempt_id, reason: e.data.reason, at: e.data.failed_at };
  }
}

/**
 * The keyed part of GET /api/v1/agents/status (the route belongs to the catalog feature, which
 * looks this provider up by AGENT_ACCOUNT_STATUS): the account, balance_usd (fresh from the
 * ledger), the latest ledger entries and the autopay state.
 */
@Injectable()
export class AccountStatusService implements AgentAccountStatusProvider {
  constructor(
    private readonly auth: AgentAuthenticator,
    private readonly accounts: AgentAccounts,
    private readonly credits: CreditsService,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async accountStatus(request: AgentStatusRequest): Promise<Record<string, unknown>> {
    const agent = await this.auth.require(request as AgentRequest);
    const [account, { state }, entries] = await Promise.all([
      this.accounts.load(agent.accountId),
      this.credits.state(agent.accountId, { fresh: true }),
      this.credits.recentEntries(agent.accountId, RECENT_ENTRIES),
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
      recent_ledger: entries.map(ledgerEntryView),
      autopay: { ...autopayView(state), threshold_usd: usd(this.config.autopayThresholdCents ?? 1000) },
    };
  }
}
