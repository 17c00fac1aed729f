import { createHash } from 'node:crypto';

export const USER_ROLES = ['admin', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Stored event types of `user-{id}` streams. Names are stable: never rename. */
export type UserEvent =
  | {
      type: 'UserCreated';
      data: {
        user_id: string;
        account_id: string;
        /** As the operator typed it (trimmed); compared case-insensitively through `normalizeEmail`. */
        email: string;
        role: UserRole;
        /** argon2id, PHC string format (`$argon2id$v=19$m=…`): never the password. */
        password_hash: string;
        created_at: string;
      };
    }
  | {
      /**
       * A new password: `changed` by the user, who gave the current one;
       * `reset` through a single-use reset token. Either way the user's other sessions end.
       */
      type: 'UserPasswordChanged';
      data: {
        user_id: string;
        account_id: string;
        password_hash: string;
        reason: 'changed' | 'reset';
        changed_at: string;
      };
    }
  | {
      /** An admin changed the role; the account roster accepted it first (last admin kept, ADR 0083). */
      type: 'UserRoleChanged';
      data: { user_id: string; account_id: string; from: UserRole; role: UserRole; changed_at: string };
    }
  | {
      /** An admin removed the user: sign-in and reset refuse them, and their address may be reused. */
      type: 'UserRemoved';
      data: { user_id: string; account_id: string; removed_at: string };
    };

export const USER_EVENT_TYPES: UserEvent['type'][] = [
  'UserCreated',
  'UserPasswordChanged',
  'UserRoleChanged',
  'UserRemoved',
];

/**
 * Stored event types of `useremail-{sha256}` streams: the reservation of one normalised email
 * address, so two users never share it even when created at the same moment (ADR 0065).
 */
export type UserEmailEvent =
  | { type: 'UserEmailReserved'; data: { user_id: string; account_id: string; reserved_at: string } }
  | {
      type: 'UserEmailReleased';
      /** A reservation whose user was never created (the creating process stopped in between). */
      data: { user_id: string; reason: 'user_never_created'; released_at: string };
    };

export const USER_EMAIL_EVENT_TYPES: UserEmailEvent['type'][] = ['UserEmailReserved', 'UserEmailReleased'];

export const userStream = (userId: string) => `user-${userId}`;

/** Email addresses compare case-insensitively and without surrounding blanks. */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

/** The reservation stream of an address; its name carries a digest, not the address. */
export const userEmailStream = (email: string) =>
  `useremail-${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`;
