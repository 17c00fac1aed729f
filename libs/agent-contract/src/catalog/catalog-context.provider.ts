import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, BoundedCache, CLOCK, type Clock } from '#kernel';
import { publicBaseUrl, type RequestOrigin } from '#http';
import { agentEnvelope, type AgentEnvelope, type CatalogContext } from './catalog-context.js';
import { meterPrices, type MeterPrices } from './meters.js';

const MAX_CACHED_DOCUMENTS = 256;

/**
 * The deployment's catalogue context: effective meter prices (validated once, at start-up: an
 * unknown meter in SVC_METER_PRICES_USD stops the app), the environment, the configured rate
 * limit and autopay threshold, and the public base URL of each request.
 */
@Injectable()
export class CatalogContextProvider {
  readonly prices: MeterPrices;
  private readonly documents = new BoundedCache<string, unknown>({ maxEntries: MAX_CACHED_DOCUMENTS });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.prices = meterPrices(config.meterPricesCents ?? {});
  }

  forRequest(request: RequestOrigin | undefined): CatalogContext {
    return {
      baseUrl: publicBaseUrl(request, this.config),
      prices: this.prices,
      env: this.config.env,
      rateLimitPerMinute: this.config.agentRateLimitPerMinute,
      autopayThresholdCents: this.config.autopayThresholdCents,
      contactEmail: this.config.contactEmail,
    };
  }

  envelope<T>(data: T): AgentEnvelope<T> {
    return agentEnvelope(this.clock.now(), data);
  }

  /** A fixed document (a pure function of the context) in a fresh envelope (see `cached`). */
  document<T>(name: string, request: RequestOrigin | undefined, build: (ctx: CatalogContext) => T): AgentEnvelope<T> {
    return this.envelope(this.cached(name, request, build));
  }

  /**
   * A fixed document, built once per document and base URL: the prices, environment and limits
   * do not change while the app runs. The cache is bounded (oldest out), since base URLs come
   * from Host headers.
   */
  cached<T>(name: string, request: RequestOrigin | undefined, build: (ctx: CatalogContext) => T): T {
    const ctx = this.forRequest(request);
    const key = `${name} ${ctx.baseUrl}`;
    let data = this.documents.get(key) as T | undefined;
    if (data === undefined) {
      data = build(ctx);
      this.documents.set(key, data);
    }
    return data;
  }
}
