import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryDoc } from '../engine/webhook-docs.js';
import { isOpenAttempt, nextAttemptKey, parseAttemptKey } from './attempt-keys.js';

const doc = (over: Partial<DeliveryDoc>) =>
  ({ id: 'del_01ABC', automatic_attempts: 2, manual_request_id: null, ...over }) as DeliveryDoc;

describe('attempt keys', () => {
  it('the next attempt: an asked-for redelivery first, else the next automatic one; parsed back', () => {
    assert.equal(nextAttemptKey(doc({})), 'del_01ABC:a3');
    assert.equal(nextAttemptKey(doc({ manual_request_id: 'req_9' })), 'del_01ABC:mreq_9');
    assert.deepEqual(parseAttemptKey('del_01ABC:a3'), { deliveryId: 'del_01ABC', manual: false, rank: 3 });
    assert.deepEqual(parseAttemptKey('del_01ABC:mreq_9'), {
      deliveryId: 'del_01ABC',
      manual: true,
      requestId: 'req_9',
    });
  });

  it('open: the next automatic attempt even while a redelivery waits, and that redelivery; not what is recorded', () => {
    const waiting = doc({ manual_request_id: 'req_9' });
    assert.equal(isOpenAttempt(waiting, 'del_01ABC:a3'), true);
    assert.equal(isOpenAttempt(waiting, 'del_01ABC:mreq_9'), true);
    assert.equal(isOpenAttempt(waiting, 'del_01ABC:a2'), false);
    assert.equal(isOpenAttempt(doc({}), 'del_01ABC:mreq_9'), false, 'answered (or dropped)');
    assert.equal(isOpenAttempt(doc({}), 'del_OTHER:a3'), false);
  });
});
