import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostFairQueue } from './host-fair.queue.js';

const item = (host: string, n: number, owner = 'acct_1') => ({ id: `${host}-${n}`, target: host, owner_id: owner });

describe('host-fair queue', () => {
  it('starts one per host in turn: a host with many waiting does not starve the others', () => {
    const q = new HostFairQueue({ perHost: 10, maxQueuedPerHost: 100 });
    for (let i = 0; i < 5; i++) q.push(item('slow.example', i));
    q.push(item('a.example', 0));
    q.push(item('b.example', 0));
    assert.deepEqual(
      q.take(3).map((x) => x.target),
      ['slow.example', 'a.example', 'b.example'],
    );
  });

  it('holds a host at its limit until it releases a slot, while others go on', () => {
    const q = new HostFairQueue({ perHost: 2, maxQueuedPerHost: 100 });
    for (let i = 0; i < 4; i++) q.push(item('h', i));
    q.push(item('other', 0));
    assert.deepEqual(
      q.take(10).map((x) => x.id),
      ['h-0', 'other-0', 'h-1'],
    );
    assert.equal(q.inFlight('h'), 2);
    assert.deepEqual(q.take(10), [], 'h is full, other has nothing waiting');
    assert.equal(q.runnable(), 0);
    q.release(item('h', 0));
    assert.deepEqual(
      q.take(10).map((x) => x.id),
      ['h-2'],
    );
  });

  it('takes at most the room given (the global concurrency left)', () => {
    const q = new HostFairQueue({ perHost: 5, maxQueuedPerHost: 100 });
    for (const h of ['a', 'b', 'c']) for (let i = 0; i < 3; i++) q.push(item(h, i));
    assert.equal(q.take(4).length, 4);
    assert.equal(q.size, 5);
  });

  it('refuses a host past its waiting limit, and an item it holds already', () => {
    const q = new HostFairQueue({ perHost: 1, maxQueuedPerHost: 2 });
    assert.equal(q.push(item('h', 0)), 'added');
    assert.equal(q.push(item('h', 0)), 'known');
    assert.equal(q.push(item('h', 1)), 'added');
    assert.equal(q.push(item('h', 2)), 'host_full');
    assert.equal(q.waitingFor('h'), 2);
  });

  it('holds an owner at its limit across all its hosts, so another owner still gets slots', () => {
    const q = new HostFairQueue({ perHost: 10, maxQueuedPerHost: 100, perOwner: 2 });
    for (const h of ['a', 'b', 'c']) q.push(item(h, 0, 'busy_tenant'));
    q.push(item('d', 0, 'other'));
    const taken = q.take(10);
    assert.deepEqual(taken.map((x) => x.id).sort(), ['a-0', 'b-0', 'd-0']);
    assert.equal(q.ownerInFlight('busy_tenant'), 2);
    q.release(taken.find((x) => x.id === 'a-0')!);
    assert.deepEqual(
      q.take(10).map((x) => x.id),
      ['c-0'],
    );
  });

  it('when slots free one at a time, they go round the hosts instead of back to the first (no starvation)', () => {
    const q = new HostFairQueue({ perHost: 1, maxQueuedPerHost: 100 });
    for (const h of ['a', 'b', 'c']) for (let i = 0; i < 3; i++) q.push(item(h, i));
    const order: string[] = [];
    let running = q.take(1);
    for (let i = 0; i < 6; i++) {
      order.push(running[0]!.target);
      q.release(running[0]!);
      running = q.take(1);
    }
    assert.deepEqual(order, ['a', 'b', 'c', 'a', 'b', 'c']);
  });
});
