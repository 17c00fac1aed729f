import { join } from 'node:path';
import { MongoRateLimitStore, type RateLimitStore, SqliteRateLimitStore } from '#access';
import type { AppConfig } from '#kernel';
import { DocumentLeases, type DeliveryLeases, SqliteDeliveryLeases } from '#webhooks';
import type { Stores } from './open-stores.js';

/**
 * State that must be shared by every process of a deployment, chosen with the stores: in MongoDB
 * when the read models live there (several api instances and workers), else in the embedded data
 * directory, which every process started on it shares (ADR 0067).
 */

/**
 * Rate-limit counters: an account's limits hold across api processes in both modes. Embedded:
 * `rate-limits.sqlite` beside the stores' file (a file of its own: counting never waits on the
 * event store's write lock).
 */
export function rateLimitStoreFor(stores: Pick<Stores, 'mongo'>, config: Pick<AppConfig, 'dataDir'>): RateLimitStore {
  const mongo = stores.mongo;
  return mongo
    ? new MongoRateLimitStore(() => mongo.database())
    : new SqliteRateLimitStore({ path: join(config.dataDir, 'rate-limits.sqlite') });
}

/**
 * Leases of webhook attempts: one attempt per scheduled attempt whichever dispatcher claims it.
 * Shared by every process in both modes (ADR 0067): MongoDB through the document store; embedded,
 * `webhook-leases.sqlite` in the data directory (a file of its own, written without fsync: a
 * durable write per attempt would cost more than the send).
 */
export function deliveryLeasesFor(
  stores: Pick<Stores, 'mongo' | 'documents'>,
  config: Pick<AppConfig, 'dataDir'>,
): DeliveryLeases {
  return stores.mongo
    ? new DocumentLeases(stores.documents)
    : new SqliteDeliveryLeases({ path: join(config.dataDir, 'webhook-leases.sqlite') });
}
