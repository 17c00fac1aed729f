import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnershipLease, OwnershipLeases } from './ownership.port.js';
import { BackgroundOwnership, type OwnedJob } from './background-ownership.js';

/**
 * The heartbeat and the standby, ticked by hand on fake clocks (wall for the leases, monotonic
 * for each process's own deadline), over an in-memory lease table with the adapter's rules and
 * a switch to make the store fail.
 */
class MemoryLeases implements OwnershipLeases {
  readonly table = new Map<string, OwnershipLease>();
  failing = false;
  constructor(private readonly now: () => number) {}

  private check(): void {
    if (this.failing) throw new Error('store unreachable');
  }
  async acquire(job: string, owner: string, ttlMs: number) {
    this.check();
    const t = this.now();
    const cur = this.table.get(job);
    if (cur && cur.owner !== owner && cur.expiresAt > t) return null;
    const mine = cur?.owner === owner && cur.expiresAt > t;
    const lease = {
      job,
      owner,
      expiresAt: t + ttlMs,
      term: mine ? cur.term : (cur?.term ?? 0) + 1,
      acquiredAt: mine ? cur.acquiredAt : t,
    };
    this.table.set(job, lease);
    return lease;
  }
  async renew(lease: OwnershipLease, ttlMs: number) {
    this.check();
    const cur = this.table.get(lease.job);
    if (!cur || cur.owner !== lease.owner || cur.expiresAt !== lease.expiresAt) return null;
    const next = { ...cur, expiresAt: this.now() + ttlMs };
    this.table.set(lease.job, next);
    return next;
  }
  async release(lease: OwnershipLease) {
    this.check();
    const cur = this.table.get(lease.job);
    if (cur && cur.owner === lease.owner && cur.expiresAt === lease.expiresAt)
      this.table.set(lease.job, { ...cur, expiresAt: 0 });
  }
  async list() {
    this.check();
    return [...this.table.values()];
  }
}

function world() {
  let wall = 1_700_000_000_000;
  let mono = 0;
  const leases = new MemoryLeases(() => wall);
  const settings = { leaseMs: 6000, renewMs: 2000, standbyCheckMs: 1000 };
  const log: string[] = [];
  function proc(owner: string, options: { ownerIsGone?: (o: string) => boolean } = {}) {
    const ownership = new BackgroundOwnership(leases, {
      owner,
      settings,
      monotonic: () => mono,
      now: () => wall,
      ...options,
    });
    const running = new Set<string>();
    const job = (name: string): OwnedJob => ({
      name,
      start: () => {
        running.add(name);
        log.push(`${owner} start ${name}`);
      },
      stop: async () => {
        running.delete(name);
        log.push(`${owner} stop ${name}`);
      },
    });
    ownership.add(job('projection:a'));
    ownership.add(job('webhooks:platform'));
    return { ownership, running };
  }
  return {
    leases,
    log,
    proc,
    advance(ms: number) {
      wall += ms;
      mono += ms;
    },
  };
}

/** Starts without its timer (ticks are by hand) by marking it running through start()+clearing. */
function manual(o: BackgroundOwnership): BackgroundOwnership {
  o.start();
  // The interval is unref'd; stopping it keeps the test deterministic.
  clearInterval((o as unknown as { timer: NodeJS.Timeout }).timer);
  return o;
}

describe('BackgroundOwnership', () => {
  it('one process runs each job; the other stands by; never both', async () => {
    const w = world();
    const a = w.proc('A');
    const b = w.proc('B');
    manual(a.ownership);
    await a.ownership.settle();
    manual(b.ownership);
    for (let i = 0; i < 20; i++) {
      await a.ownership.tick();
      await b.ownership.tick();
      assert.deepEqual([...a.running].sort(), ['projection:a', 'webhooks:platform']);
      assert.equal(b.running.size, 0);
      assert.ok(!b.ownership.holds('projection:a'));
      w.advance(500);
    }
    const views = await b.ownership.status();
    assert.deepEqual(
      views.map((v) => [v.job, v.owner, v.here]),
      [
        ['projection:a', 'A', false],
        ['webhooks:platform', 'A', false],
      ],
    );
  });

  it('a dead owner (no more renewals) is replaced after the lease time, within lease + standby check', async () => {
    const w = world();
    const a = w.proc('A');
    const b = w.proc('B');
    manual(a.ownership);
    await a.ownership.settle();
    manual(b.ownership);
    // A dies now: it never ticks again.
    let waited = 0;
    while (b.running.size < 2) {
      assert.ok(waited <= 7000, `no takeover after ${waited} ms`);
      w.advance(250);
      waited += 250;
      await b.ownership.tick();
    }
    assert.ok(waited >= 6000, `taken over after ${waited} ms, before the lease ran out`);
    assert.equal((await w.leases.list()).find((l) => l.job === 'projection:a')?.term, 2);
  });

  it('a graceful stop stops the jobs first, then releases: the standby takes over at its next look', async () => {
    const w = world();
    const a = w.proc('A');
    const b = w.proc('B');
    manual(a.ownership);
    await a.ownership.settle();
    manual(b.ownership);
    await b.ownership.tick();
    await a.ownership.stop();
    assert.equal(a.running.size, 0);
    w.advance(1000);
    await b.ownership.tick();
    assert.equal(b.running.size, 2);
    const stopA = w.log.indexOf('A stop projection:a');
    const startB = w.log.indexOf('B start projection:a');
    assert.ok(stopA >= 0 && startB > stopA, w.log.join('\n'));
  });

  it('an owner whose renewals fail stops acting before the lease can be taken by anyone', async () => {
    const w = world();
    const a = w.proc('A');
    manual(a.ownership);
    await a.ownership.settle();
    assert.ok(a.ownership.holds('projection:a'));
    w.leases.failing = true;
    let stoppedAt = -1;
    for (let t = 250; t <= 6000; t += 250) {
      w.advance(250);
      await a.ownership.tick();
      if (stoppedAt < 0 && a.running.size === 0) stoppedAt = t;
      if (a.running.size === 0) assert.ok(!a.ownership.holds('projection:a'));
    }
    // Last renewal at 0 → expiry at 6000 for the others; A stopped at leaseMs - renewMs = 4000.
    assert.equal(stoppedAt, 4000);
  });

  it('a paused owner (no ticks) knows at once on waking that it may no longer act', async () => {
    const w = world();
    const a = w.proc('A');
    const b = w.proc('B');
    manual(a.ownership);
    await a.ownership.settle();
    manual(b.ownership);
    // A is paused for 10 s: B takes over meanwhile.
    for (let i = 0; i < 40; i++) {
      w.advance(250);
      await b.ownership.tick();
    }
    assert.equal(b.running.size, 2);
    // A wakes: before its first tick, holds() already says no (its deadline passed).
    assert.ok(!a.ownership.holds('webhooks:platform'));
    await a.ownership.tick();
    assert.equal(a.running.size, 0, 'A stopped its jobs');
    assert.equal((await w.leases.list()).find((l) => l.job === 'webhooks:platform')?.owner, 'B');
  });

  it('takes at once the jobs of an owner known to be gone (a killed process of this host)', async () => {
    const w = world();
    const a = w.proc('A');
    const b = w.proc('B', { ownerIsGone: (o) => o === 'A' });
    manual(a.ownership);
    await a.ownership.settle();
    manual(b.ownership);
    w.advance(1000);
    await b.ownership.tick();
    assert.equal(b.running.size, 2);
    assert.equal((await w.leases.list()).find((l) => l.job === 'projection:a')?.term, 2);
  });

  it('refuses settings where a missed renewal could not be retried before the expiry', () => {
    assert.throws(
      () => new BackgroundOwnership(new MemoryLeases(() => 0), { settings: { leaseMs: 3000, renewMs: 2000 } }),
      /at most half/,
    );
  });
});
