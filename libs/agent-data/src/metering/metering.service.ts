import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { CheckoutLinkSigner } from '../billing/checkout-link/checkout-link.signature.js';
import { isMeterName, type MeterName, type MeterPrices, meterPrices } from '../catalog/meters.js';
import type { LedgerResult, Reservation } from '../credits/credit-ledger.js';
import { InsufficientCreditsError } from '../credits/credits.decider.js';
import { CreditsService } from '../credits/credits.service.js';
import { insufficientCredits } from './payment-required.js';

export interface MeteredCaller {
  accountId: string;
  keyId: string | null;
  /** Public origin for the links of a 402. */
  baseUrl: string;
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
 * outside HTTP (MCP tools, webhook deliveries).
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

  /** The 402's checkout link binds to the caller's key with a signature (a bare key_id does not). */
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

  /** Charges one successful call; resolves once the MeterCharged event is durable. */
  async charge(caller: MeteredCaller, meter: MeterName, requestId: string, hold?: Reservation): Promise<Charged> {
    const price = this.priceOf(meter);
    try {
      const result = await this.credits.execute(
        caller.accountId,
        {
          type: 'ChargeMeter',
          accountId: caller.accountId,
          meter,
          priceCents: price,
          requestId,
          keyId: caller.keyId,
          autopayThresholdCents: this.config.autopayThresholdCents ?? 1000,
          newAutopayAttemptId: () => this.ids.next('att'),
          now: this.clock.now(),
        },
        { hold },
      );
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
