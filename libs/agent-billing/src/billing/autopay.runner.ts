import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { AgentAccounts } from '../accounts/agent-accounts.js';
import { findPack, type PackId } from '#agent-contract';
import { AUTOPAY_PROVIDER_ERROR } from '../credits/credits-autopay.decider.js';
import { CreditsService } from '../credits/credits.service.js';
import { PaymentFulfilment } from '../payments/payment-fulfilment.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider.port.js';

interface Attempt {
  attemptId: string;
  packId: PackId;
  paymentMethodId: string;
}

/**
 * Provider errors (not declines) are retried after these delays (about 13 minutes in all), then
 * the attempt fails without switching autopay off: only a real decline does that.
 */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/** The provider's idempotency key of an autopay attempt: a retry never charges twice. */
export const autopayChargeKey = (attemptId: string) => `autopay-${attemptId}`;

/**
 * Executes autopay attempts (D19). The ledger decides WHEN (an AutopayTriggered event in the
 * same append as the charge that crossed the threshold, at most one pending per account); this
 * runner charges the saved method off-session, idempotent by the attempt id, and reports the
 * outcome back to the ledger: CreditsPurchased (source autopay) or AutopayFailed. An attempt
 * left pending by a crash is resumed when its account is next loaded.
 */
@Injectable()
export class AutopayRunner implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Autopay');
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly credits: CreditsService,
    private readonly accounts: AgentAccounts,
    private readonly fulfilment: PaymentFulfilment,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.credits.onCommitted((accountId, events) => {
      for (const e of events) {
        if (e.type === 'AutopayTriggered')
          this.start(accountId, {
            attemptId: e.data.attempt_id,
            packId: e.data.pack_id,
            paymentMethodId: e.data.payment_method_id,
          });
      }
    });
    this.credits.onLoaded((accountId, state) => {
      const p = state.autopayPending;
      if (p) this.start(accountId, { attemptId: p.attemptId, packId: p.packId, paymentMethodId: p.paymentMethodId });
    });
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Resolves when no attempt is running in this process (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private start(accountId: string, attempt: Attempt, tries = 0): void {
    if (this.stopped || this.running.has(attempt.attemptId)) return;
    const run = this.attempt(accountId, attempt, tries).finally(() => this.running.delete(attempt.attemptId));
    this.running.set(attempt.attemptId, run);
  }

  private async attempt(accountId: string, attempt: Attempt, tries: number): Promise<void> {
    try {
      const pack = findPack(attempt.packId);
      const account = await this.accounts.load(accountId);
      const customerId = account.status === 'open' ? account.customers[this.provider.name] : undefined;
      if (!pack || !customerId)
        return this.fail(accountId, attempt, !pack ? 'unknown_pack' : 'no_saved_payment_method');
      const outcome = await this.provider.chargeOffSession({
        accountId,
        customerId,
        paymentMethodId: attempt.paymentMethodId,
        pack,
        purpose: 'autopay',
        idempotencyKey: autopayChargeKey(attempt.attemptId),
      });
      if (outcome.status === 'succeeded') {
        await this.fulfilment.paymentSucceeded({
          provider: this.provider.name,
          paymentIntentId: outcome.paymentIntentId,
          accountId,
          packId: pack.pack_id,
          amountPaidCents: outcome.amountCents,
          source: 'autopay',
          keyId: null,
          autopayAttemptId: attempt.attemptId,
        });
        this.logger.log(`autopay ${attempt.attemptId} of ${accountId}: ${pack.pack_id} charged`);
      } else if (outcome.status === 'failed') {
        await this.fail(accountId, attempt, outcome.code);
      }
      // pending: the provider's payment_intent.succeeded webhook settles it.
    } catch (error) {
      const delay = RETRY_DELAYS_MS[tries];
      this.logger.warn(
        `autopay ${attempt.attemptId} of ${accountId} failed (try ${tries + 1}): ${error instanceof Error ? error.message : String(error)}`,
      );
      if (delay === undefined) {
        await this.fail(accountId, attempt, AUTOPAY_PROVIDER_ERROR).catch(() => undefined);
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.start(accountId, attempt, tries + 1);
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }

  private async fail(accountId: string, attempt: Attempt, reason: string): Promise<void> {
    await this.credits.execute(accountId, {
      type: 'FailAutopay',
      accountId,
      attemptId: attempt.attemptId,
      reason,
      now: this.clock.now(),
    });
    this.logger.warn(
      reason === AUTOPAY_PROVIDER_ERROR
        ? `autopay ${attempt.attemptId} of ${accountId} failed: the payment provider kept failing; autopay stays on`
        : `autopay ${attempt.attemptId} of ${accountId} failed: ${reason}; autopay is off until re-enabled`,
    );
  }
}
