import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import type { AccountEvent, Plan, RateLimits } from './account.events.js';
import { ACCOUNT_EVENT_TYPES } from './account.events.js';

export interface AccountDoc {
  [key: string]: unknown;
  id: string;
  name: string;
  plan: Plan;
  limits: RateLimits;
  created_at: string;
  updated_at: string;
}

export const ACCOUNTS_PROJECTION = 'accounts';
export const ACCOUNTS_COLLECTION = 'accounts';

export const accountsProjection: ProjectionDefinition = {
  name: ACCOUNTS_PROJECTION,
  version: 1,
  eventTypes: ACCOUNT_EVENT_TYPES,
  collections: [{ name: ACCOUNTS_COLLECTION, indexes: [{ fields: [['created_at', 1]] }] }],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as AccountEvent;
    switch (event.type) {
      case 'AccountCreated': {
        const d = event.data;
        const doc: AccountDoc = {
          id: d.account_id,
          name: d.name,
          plan: d.plan,
          limits: d.limits,
          created_at: d.created_at,
          updated_at: d.created_at,
        };
        ctx.upsert(ACCOUNTS_COLLECTION, doc);
        return;
      }
      case 'AccountPlanChanged': {
        const doc = await ctx.get<AccountDoc>(ACCOUNTS_COLLECTION, event.data.account_id);
        if (doc)
          ctx.upsert(ACCOUNTS_COLLECTION, {
            ...doc,
            plan: event.data.plan,
            limits: event.data.limits,
            updated_at: event.data.changed_at,
          });
        return;
      }
    }
  },
};
