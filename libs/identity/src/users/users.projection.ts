import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import { normalizeEmail, USER_EVENT_TYPES, type UserEvent, type UserRole } from './user.events.js';

/** A user as lists show it; the password hash stays in the user's stream. */
export interface UserDoc {
  [key: string]: unknown;
  id: string;
  account_id: string;
  email: string;
  email_normalized: string;
  role: UserRole;
  created_at: string;
  updated_at: string;
}

export const USERS_PROJECTION = 'users';
export const USERS_COLLECTION = 'users';

export const usersProjection: ProjectionDefinition = {
  name: USERS_PROJECTION,
  version: 1,
  eventTypes: USER_EVENT_TYPES,
  collections: [
    {
      name: USERS_COLLECTION,
      indexes: [
        {
          fields: [
            ['account_id', 1],
            ['created_at', 1],
          ],
        },
        { fields: [['email_normalized', 1]] },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as UserEvent;
    switch (event.type) {
      case 'UserCreated': {
        const d = event.data;
        const doc: UserDoc = {
          id: d.user_id,
          account_id: d.account_id,
          email: d.email,
          email_normalized: normalizeEmail(d.email),
          role: d.role,
          created_at: d.created_at,
          updated_at: d.created_at,
        };
        ctx.upsert(USERS_COLLECTION, doc);
        return;
      }
      case 'UserPasswordChanged':
        // Nothing a list shows: the hash stays in the user's stream.
        return;
      case 'UserRoleChanged': {
        const doc = await ctx.get<UserDoc>(USERS_COLLECTION, event.data.user_id);
        if (doc) ctx.upsert(USERS_COLLECTION, { ...doc, role: event.data.role, updated_at: event.data.changed_at });
        return;
      }
      case 'UserRemoved':
        ctx.delete(USERS_COLLECTION, event.data.user_id);
        return;
    }
  },
};
