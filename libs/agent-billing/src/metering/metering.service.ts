import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { CheckoutLinkSigner } from '../checkout/checkout-link.signature.js';
import { isMeterName, type MeterName, type MeterPrices, meterPrices } from '#agent-contract';
import type { LedgerResult, Reservation } from '../credits/credit-ledger.js';
import { InsufficientCreditsError } from '../credits/credits-charges.decider.js';
import { CreditsService } from '../credits/credits.service.js';
import { insufficientCredits } from './payment-required.js';

export interface MeteredCaller {
  accountId: string;
  keyId: string | null;
  /** Public origin for the links of a 402. */
  baseUrl: string;
}

/** The outcome of a keyed charge: `charged: false` is a lack of credits (nothing was appended). */
export type ChargeOnceResult = { charged: true; balanceCents: number } | { charged: false; balanceCents: number };

/** The outcome of settling a keyed charge: `settled: false` when the key was not open (already settled). */
export interface SettleResult {
  settled: boolean;
  refundedCents: number;
  balanceCents: number;
}

export interface Charged {
  meter: MeterName;
  priceCents: number;
  balanceCents: number;
  result: LedgerResult;
}

/**
 * Charges named meters (D17 prices, SVC_METER_PRICES_USD overrides) against the credits ledger.
 * `authorize` before the work (a hold, or 402 for an exhausted account), `charge` after it
 * succeeded (durable before the response; 402 if the credits went meanwhile). Also usable
 * outside HTTP (MCP tools); webhook deliveries use `chargeOnce` before the push and `settle`
 * after the attempt is recorded.
 */
@Injectable()
export class MeteringService {
  readonly prices: MeterPrices;

  constructor(
    private readonly credits: CreditsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly links: CheckoutLinkSigner,
  ) {
    this.prices = meterPrices(config.meterPricesCents ?? {});
  }

  /** The 402's checkout link binds to the caller's key, signed (a changed link is refused). */
  private binding(caller: MeteredCaller) {
    return caller.keyId ? this.links.sign(caller.keyId) : null;
  }

  priceOf(meter: string): number {
    if (!isMeterName(meter)) throw new Error(`Unknown meter ${meter}`);
    return this.prices[meter];
  }

  /** A hold for one call of `meter`, or the D18 402 when the balance cannot cover it. */
  async authorize(caller: MeteredCaller, meter: MeterName): Promise<Reservation> {
    const price = this.priceOf(meter);
    const outcome = await this.credits.reserve(caller.accountId, price);
    if (!outcome.ok) {
      throw insufficientCredits({
        meter,
        priceCents: price,
        balanceCents: outcome.state.balanceCents,
        baseUrl: caller.baseUrl,
        binding: this.binding(caller),
      });
    }
    return outcome.reservation;
  }

  /**
   * Whether the balance covers one call of `meter` now (402 otherwise), without charging or
   * holding anything: `HEAD` on a paid route, a free preflight.
   */
  async quote(caller: MeteredCaller, meter: MeterName): Promise<{ priceCents: number; balanceCents: number }> {
    const hold = await this.authorize(caller, meter);
    hold.release();
    const { state } = await this.credits.state(caller.accountId);
    return { priceCents: this.priceOf(meter), balanceCents: state.balanceCents };
  }

  /**
   * Whether the balance, net of the holds of paid calls in flight, covers one call of `meter`
   * now (caught up with the stream before saying no). Holds nothing.
   */
  async canPay(accountId: string, meter: MeterName): Promise<boolean> {
    const reserved = await this.credits.reserve(accountId, this.priceOf(meter));
    if (!reserved.ok) return false;
    reserved.reservation.release();
    return true;
  }

  /**
   * Charges `meter` once per `chargeKey` (e.g. a webhook delivery attempt key), before the work:
   * the same key again while it is open is `charged: true` with nothing appended, so a retry
   * after a crash does not pay twice. Lack of credits is `charged: false`, not an error. The
   * charge stays open until `settle`. Resolves once the MeterCharged event is durable.
   */
  async chargeOnce(
    caller: { accountId: string; keyId: string | null },
    meter: MeterName,
    chargeKey: string,
    requestId: string,
  ): Promise<ChargeOnceResult> {
    const price = this.priceOf(meter);
    const run = (hold?: Reservation) =>
      this.credits.execute(
        caller.accountId,
        { ...this.chargeCommand(caller, meter, price, requestId), chargeKey },
        hold ? { hold } : {},
      );
    let hold: Reservation | undefined;
    if (!(await this.credits.state(caller.accountId)).state.openCharges.has(chargeKey)) {
      // Paid calls in flight hold their price: this charge never takes credits one of them
      // already counted on (it would answer 402 after doing its work). reserve() catches up with
      // the stream before refusing, so credits bought through another process count.
      const reserved = await this.credits.reserve(caller.accountId, price);
      if (!reserved.ok) {
        const { state } = await this.credits.state(caller.accountId, { fresh: true });
        return { charged: state.openCharges.has(chargeKey), balanceCents: state.balanceCents };
      }
      hold = reserved.reservation;
    }
    try {
      return { charged: true, balanceCents: (await run(hold)).state.balanceCents };
    } catch (error) {
      hold?.release();
      if (error instanceof InsufficientCreditsError) return { charged: false, balanceCents: error.balanceCents };
      throw error;
    }
  }

  /**
   * Settles the open charge of `chargeKey`: kept, or refunded into the balance (the push
   * failed). Idempotent: a key already settled (or never charged) changes nothing.
   */
  async settle(accountId: string, chargeKey: string, refund: boolean, reason?: string): Promise<SettleResult> {
    const run = () =>
      this.credits.execute(accountId, {
        type: 'SettleCharge',
        accountId,
        chargeKey,
        refund,
        reason,
        now: this.clock.now(),
      });
    let result = await run();
    if (result.events.length === 0) {
      // The key may have been charged through another process: look again on a fresh state.
      const { state } = await this.credits.state(accountId, { fresh: true });
      if (!state.openCharges.has(chargeKey))
        return { settled: false, refundedCents: 0, balanceCents: state.balanceCents };
      result = await run();
    }
    const settled = result.events.find((e) => e.type === 'MeterChargeSettled');
    return {
      settled: settled !== undefined,
      refundedCents: settled?.data.refunded_cents ?? 0,
      balanceCents: result.state.balanceCents,
    };
  }

  private chargeCommand(
    caller: { accountId: string; keyId: string | null },
    meter: MeterName,
    priceCents: number,
    requestId: string,
  ) {
    return {
      type: 'ChargeMeter' as const,
      accountId: caller.accountId,
      meter,
      priceCents,
      requestId,
      keyId: caller.keyId,
      autopayThresholdCents: this.config.autopayThresholdCents ?? 1000,
      newAutopayAttemptId: () => this.ids.next('att'),
      now: this.clock.now(),
    };
  }

  /** Charges one successful call; resolves once the MeterCharged event is durable. */
  async charge(caller: MeteredCaller, meter: MeterName, requestId: string, hold?: Reservation): Promise<Charged> {
    const price = this.priceOf(meter);
    try {
      const result = await this.credits.execute(caller.accountId, this.chargeCommand(caller, meter, price, requestId), {
        hold,
      });
      return { meter, priceCents: price, balanceCents: result.state.balanceCents, result };
    } catch (error) {
      if (error instanceof InsufficientCreditsError) {
        throw insufficientCredits({
          meter,
          priceCents: price,
          balanceCents: error.balanceCents,
          baseUrl: caller.baseUrl,
          binding: this.binding(caller),
        });
      }
      throw error;
    }
  }
}
