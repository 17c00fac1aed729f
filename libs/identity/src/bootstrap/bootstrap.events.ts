/** Stored event types of the `system-bootstrap` stream. Names are stable: never rename. */
export type BootstrapEvent =
  | { type: 'BootstrapClaimed'; data: { account_id: string; key_id: string; claimed_at: string } }
  /** `key_id`: the key actually issued (the claimed one unless an attempt had to be redone). */
  | { type: 'BootstrapCompleted'; data: { account_id: string; key_id: string; completed_at: string } };

export const BOOTSTRAP_STREAM = 'system-bootstrap';
