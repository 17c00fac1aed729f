import { InMemoryRateLimitStore, MongoRateLimitStore, type RateLimitStore } from '#access';
import { DocumentLeases, type DeliveryLeases } from '#webhooks';
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

/**
 * Leases of webhook attempts: one attempt per scheduled attempt whichever dispatcher claims it.
 * In the document store in both modes: on the embedded store, processes sharing the data file
 * (two workers, or the api with projections and a worker) see each other's leases (ADR 0067).
 */
export function deliveryLeasesFor(stores: Pick<Stores, 'documents'>): DeliveryLeases {
  return new DocumentLeases(stores.documents);
}
