import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryDoc } from '../engine/webhook-docs.js';
import { InterruptedAttemptsRecovery, RECOVER_BATCH } from './interrupted-attempts.recovery.js';

describe('interrupted attempts recovery', () => {
  it('records each interrupted attempt of a known delivery not in flight; one failure does not stop the others', async () => {
    const recovered: string[] = [];
    const warnings: string[] = [];
    let asked = 0;
    const docs: Record<string, DeliveryDoc> = {
      del_a: { id: 'del_a' } as DeliveryDoc,
      del_b: { id: 'del_b' } as DeliveryDoc,
      del_c: { id: 'del_c' } as DeliveryDoc,
    };
    const recovery = new InterruptedAttemptsRecovery({
      leases: {
        interrupted: (limit) => {
          asked = limit;
          return Promise.resolve(['del_a:a1', 'del_busy:a2', 'del_other:a1', 'del_b:mreq_1', 'del_c:a3']);
        },
      },
      deliveries: { get: (id) => Promise.resolve(docs[id] ?? null) },
      recover: (doc, key) => {
        if (doc.id === 'del_b') return Promise.reject(new Error('store down'));
        recovered.push(key);
        return Promise.resolve();
      },
      isInFlight: (id) => id === 'del_busy',
      isStopping: () => false,
      warn: (m) => warnings.push(m),
    });
    await recovery.pass();
    assert.equal(asked, RECOVER_BATCH);
    assert.deepEqual(recovered, ['del_a:a1', 'del_c:a3']);
    assert.deepEqual(warnings, ['interrupted attempt del_b:mreq_1 not recorded yet: store down']);
  });

  it('does nothing once stopping', async () => {
    const recovery = new InterruptedAttemptsRecovery({
      leases: { interrupted: () => assert.fail('not asked') },
      deliveries: { get: () => assert.fail('not read') },
      recover: () => assert.fail('not recorded'),
      isInFlight: () => false,
      isStopping: () => true,
      warn: () => undefined,
    });
    await recovery.pass();
  });
});
