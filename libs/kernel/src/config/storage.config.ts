import { resolve } from 'node:path';
import { z } from 'zod';
import { int, invalid, secretKeyList, secretKeyText, url } from './config-fields.js';

/** Where the data lives, which process runs the projections, and the keys sealing secrets at rest. */
export const storageEnv = z.object({
  SVC_DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_URL: url(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover']).optional(),
  MONGODB_URL: url(['mongodb', 'mongodb+srv']).optional(),
  MONGODB_DATABASE: z.string().min(1).default('svc'),
  /** Run projections (and later the dispatcher) inside the API process. Default: only when embedded. */
  SVC_RUN_PROJECTIONS: z.enum(['true', 'false', 'auto']).default('auto'),
  SVC_READ_YOUR_WRITES_TIMEOUT_MS: int(5000, 0, 60000),
  /** Documents held by the read cache per projection that this process runs (0 = no read cache). */
  SVC_READ_CACHE_DOCUMENTS: int(10_000, 0, 1_000_000),
  /** Ownership of background jobs across processes (ADR 0067): lease time, renewal, standby's look. */
  SVC_OWNERSHIP_LEASE_MS: int(6000, 1000, 600_000),
  SVC_OWNERSHIP_RENEW_MS: int(2000, 100, 300_000),
  SVC_OWNERSHIP_STANDBY_CHECK_MS: int(1000, 50, 60_000),
  /** The worker answers GET /health on this port (0 = any free port); unset = no health server. */
  SVC_WORKER_HEALTH_PORT: z.coerce
    .number({ message: 'expected an integer' })
    .int({ message: 'expected an integer' })
    .min(0, { message: 'expected at least 0' })
    .max(65535, { message: 'expected at most 65535' })
    .optional(),
  /** Encrypts webhook signing secrets at rest; unset = a key made in SVC_DATA_DIR/secrets.key. */
  SVC_SECRETS_KEY: secretKeyText.optional(),
  /** Previous SVC_SECRETS_KEY values, comma-separated: they open what they sealed (rotation). */
  SVC_SECRETS_OLD_KEYS: secretKeyList.optional(),
});

export interface StorageConfig {
  dataDir: string;
  eventStoreUrl?: string;
  mongoUrl?: string;
  mongoDatabase: string;
  runProjections: boolean;
  readYourWritesTimeoutMs: number;
  /** SVC_READ_CACHE_DOCUMENTS: documents held by the read cache per locally run projection (0 = off). */
  readCacheDocuments: number;
  /** Leases of background jobs (ADR 0067), in ms. */
  ownership: { leaseMs: number; renewMs: number; standbyCheckMs: number };
  /** SVC_WORKER_HEALTH_PORT: the worker's health server; unset = none. */
  workerHealthPort?: number;
  /** SVC_SECRETS_KEY: the key sealing secrets at rest; unset = `{dataDir}/secrets.key`. */
  secretsKey?: string;
  /** SVC_SECRETS_OLD_KEYS: earlier keys, used only to open what they sealed. */
  secretsOldKeys: string[];
}

export function storageConfig(c: z.infer<typeof storageEnv>): StorageConfig {
  if (c.SVC_OWNERSHIP_RENEW_MS * 2 > c.SVC_OWNERSHIP_LEASE_MS)
    throw invalid(
      'SVC_OWNERSHIP_RENEW_MS',
      JSON.stringify(String(c.SVC_OWNERSHIP_RENEW_MS)),
      `expected at most half of SVC_OWNERSHIP_LEASE_MS (${c.SVC_OWNERSHIP_LEASE_MS}), so a missed renewal is retried before the lease runs out`,
    );
  const embedded = !c.EVENTSTORE_URL && !c.MONGODB_URL;
  return {
    dataDir: resolve(c.SVC_DATA_DIR),
    eventStoreUrl: c.EVENTSTORE_URL,
    mongoUrl: c.MONGODB_URL,
    mongoDatabase: c.MONGODB_DATABASE,
    runProjections: c.SVC_RUN_PROJECTIONS === 'auto' ? embedded : c.SVC_RUN_PROJECTIONS === 'true',
    readYourWritesTimeoutMs: c.SVC_READ_YOUR_WRITES_TIMEOUT_MS,
    readCacheDocuments: c.SVC_READ_CACHE_DOCUMENTS,
    ownership: {
      leaseMs: c.SVC_OWNERSHIP_LEASE_MS,
      renewMs: c.SVC_OWNERSHIP_RENEW_MS,
      standbyCheckMs: c.SVC_OWNERSHIP_STANDBY_CHECK_MS,
    },
    workerHealthPort: c.SVC_WORKER_HEALTH_PORT,
    secretsKey: c.SVC_SECRETS_KEY,
    secretsOldKeys: c.SVC_SECRETS_OLD_KEYS ?? [],
  };
}
