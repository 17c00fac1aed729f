import { Errors } from '#kernel';
import { decideAndAppend, type EventStore } from '#eventstore';
import { passwordProblems } from './password-policy.js';
import type { PasswordHasher } from './password-hasher.port.js';
import { userDecider } from './user.decider.js';
import { userStream } from './user.events.js';

/** The new password against the policy, as the `new_password` field. */
export function newPasswordProblems(password: string) {
  return passwordProblems(password).map((d) => ({ ...d, path: 'new_password' }));
}

/** Hashes the new password and appends UserPasswordChanged to the user's stream (read, fold, decide). */
export async function appendPasswordChange(
  events: EventStore,
  hasher: PasswordHasher,
  change: { userId: string; newPassword: string; reason: 'changed' | 'reset'; now: Date },
): Promise<void> {
  const details = newPasswordProblems(change.newPassword);
  if (details.length) throw Errors.validation(details);
  const passwordHash = await hasher.hash(change.newPassword);
  await decideAndAppend(events, userStream(change.userId), userDecider, {
    type: 'ChangePassword',
    passwordHash,
    reason: change.reason,
    now: change.now,
  });
}
