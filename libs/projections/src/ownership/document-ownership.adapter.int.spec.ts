import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore } from '#documents';
import { ownershipLeasesContract } from '../testing/ownership-leases.contract.js';

// Two stores opened on one file stand for two processes sharing a data directory.
ownershipLeasesContract('embedded SQLite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ownership-'));
  return {
    connect: () => new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
