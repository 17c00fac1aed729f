import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteDeliveryLeases } from './sqlite-leases.js';

/** Two lease stores on one file stand for two worker processes on one data directory. */
describe('SqliteDeliveryLeases', () => {
  let dir: string;
  let now: number;
  let open: SqliteDeliveryLeases[];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'webhook-leases-'));
    now = 1_700_000_000_000;
    open = [];
  });
  afterEach(async () => {
    for (const l of open) await l.close();
    await rm(dir, { recursive: true, force: true });
  });
  function leases(): SqliteDeliveryLeases {
    const l = new SqliteDeliveryLeases({ path: join(dir, 'webhook-leases.sqlite') }, () => now);
    open.push(l);
    return l;
  }

  it('an attempt claimed by one process is refused to the other until it expires or is given back', async () => {
    const [a, b] = [leases(), leases()];
    assert.equal(await a.claim('del_1:a1', 60_000), true);
    assert.equal(await a.claim('del_1:a1', 60_000), false, 'not twice, even by its holder');
    assert.equal(await b.claim('del_1:a1', 60_000), false);
    assert.equal(await b.claim('del_1:a2', 60_000), true, 'another attempt is another lease');
    now += 59_999;
    assert.equal(await b.claim('del_1:a1', 60_000), false);
    now += 1;
    assert.equal(await b.claim('del_1:a1', 60_000), true, 'expired: taken');
    await a.release('del_1:a1'); // no longer a's: changes nothing
    assert.equal(await a.claim('del_1:a1', 60_000), false);
    await b.release('del_1:a1');
    assert.equal(await a.claim('del_1:a1', 60_000), true, 'given back: free at once');
  });

  it('of many processes claiming the same attempts at once, exactly one gets each', async () => {
    const contenders = [leases(), leases(), leases()];
    const keys = Array.from({ length: 200 }, (_, i) => `del_${i}:a1`);
    const results = await Promise.all(
      keys.flatMap((key) => contenders.map(async (c, i) => ((await c.claim(key, 60_000)) ? `${key}@${i}` : null))),
    );
    const won = results.filter((r): r is string => r !== null);
    assert.equal(won.length, keys.length);
    assert.deepEqual(new Set(won.map((w) => w.split('@')[0])).size, keys.length);
  });

  it('sweeps leases expired over an hour ago', async () => {
    const a = leases();
    await a.claim('old:a1', 1000);
    now += 60 * 60_000 + 1001;
    await a.sweep();
    const b = leases();
    assert.equal(await b.claim('old:a1', 1000), true);
  });
});
