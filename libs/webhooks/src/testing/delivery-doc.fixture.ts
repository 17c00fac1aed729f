import type { DeliveryDoc } from '../engine/webhook-docs.js';

/**
 * A delivery document as the read model holds it: pending, no attempt recorded yet, its stream
 * empty (revision -1), due at once. Specs override what their case needs (attempts made,
 * revision, state).
 */
export function pendingDelivery(overrides: Partial<DeliveryDoc> = {}): DeliveryDoc {
  return {
    id: 'del_1',
    webhook_id: 'wh_1',
    owner_id: 'acct_1',
    event_id: 'evt_1',
    event_type: 'agent.completed',
    created_at: '2026-01-01T00:00:00.000Z',
    state: 'pending',
    attempts: [],
    attempt_count: 0,
    automatic_attempts: 0,
    next_attempt_at: '2026-01-01T00:00:00.000Z',
    manual_request_id: null,
    manual_requested_at: null,
    dispatch_at: '2026-01-01T00:00:00.000Z',
    revision: -1,
    target: 'http://127.0.0.1:9',
    ...overrides,
  };
}
