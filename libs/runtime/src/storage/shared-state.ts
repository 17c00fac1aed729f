import { InMemoryRateLimitStore, MongoRateLimitStore, type RateLimitStore } from '#access';
import { DocumentLeases, type DeliveryLeases, InProcessLeases } from '#webhooks';
import type { Stores } from './open-stores.js';

/**
 * State that must be shared by every process of a deployment, chosen with the stores: in this
 * process's memory on the embedded stores (one process), in MongoDB when the read models live
 * there (several api instances and dispatchers share it).
 */

/** Rate-limit counters: limits hold across api instances in the scaled mode. */
export function rateLimitStoreFor(stores: Pick<Stores, 'mongo'>): RateLimitStore {
  const mongo = stores.mongo;
  return mongo ? new MongoRateLimitStore(() => mongo.database()) : new InMemoryRateLimitStore();
}

/** Leases of webhook attempts: one attempt per scheduled attempt whichever dispatcher claims it. */
export function deliveryLeasesFor(stores: Pick<Stores, 'mongo' | 'documents'>): DeliveryLeases {
  return stores.mongo ? new DocumentLeases(stores.documents) : new InProcessLeases();
}
