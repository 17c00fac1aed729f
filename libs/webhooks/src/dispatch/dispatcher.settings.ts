/** How a WebhookDispatcher paces itself; every field has a default (DEFAULT_DISPATCHER_SETTINGS). */
export interface DispatcherSettings {
  /** Requests in flight at most (SVC_WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Requests in flight per target host at most (SVC_WEBHOOK_CONCURRENCY_PER_HOST). */
  perHost: number;
  /** Requests in flight per owner (account or tenant) at most (SVC_WEBHOOK_CONCURRENCY_PER_ACCOUNT). */
  perOwner: number;
  /** Longest idle wait between looks at the read model (real ms). */
  pollMs: number;
  /** Lease time of one attempt (real ms); far above the send timeout. */
  leaseMs: number;
  /** Due deliveries read per query. */
  pageSize: number;
  /** Due deliveries looked at per refill before asking per target host. */
  scanLimit: number;
  /** Deliveries waiting in memory at most, and per target host. */
  maxQueued: number;
  maxQueuedPerHost: number;
  /** Scales the retry schedule (SVC_WEBHOOK_RETRY_SCALE, test mode only). */
  retryScale: number;
}

export const DEFAULT_DISPATCHER_SETTINGS: DispatcherSettings = {
  concurrency: 256,
  perHost: 16,
  perOwner: 64,
  pollMs: 1000,
  leaseMs: 60_000,
  pageSize: 500,
  scanLimit: 5000,
  maxQueued: 512,
  maxQueuedPerHost: 256,
  retryScale: 1,
};

export interface DispatcherLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const SILENT_LOGGER: DispatcherLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The defaults under what was given. Unless set, the queue holds about two rounds of sends and
 * one host at most half of it (room for the others).
 */
export function resolveDispatcherSettings(given: Partial<DispatcherSettings> = {}): DispatcherSettings {
  const settings = { ...DEFAULT_DISPATCHER_SETTINGS, ...given };
  if (given.maxQueued === undefined) settings.maxQueued = Math.max(64, 2 * settings.concurrency);
  if (given.maxQueuedPerHost === undefined) settings.maxQueuedPerHost = Math.max(8, Math.floor(settings.maxQueued / 2));
  return settings;
}

/** Below this many queued deliveries the read model is read again. */
export function lowWater(settings: Pick<DispatcherSettings, 'maxQueued'>): number {
  return Math.floor(settings.maxQueued / 4);
}
