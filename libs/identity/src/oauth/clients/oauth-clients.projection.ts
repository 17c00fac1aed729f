import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import {
  OAUTH_CLIENT_EVENT_TYPES,
  type OAuthClientEvent,
  type OAuthClientPkce,
  type OAuthClientType,
} from './oauth-client.events.js';

/** An OAuth application as the dashboard lists it; never its secret hash. */
export interface OAuthClientDoc {
  [key: string]: unknown;
  id: string;
  account_id: string;
  name: string;
  redirect_uris: string[];
  client_type: OAuthClientType;
  pkce: OAuthClientPkce;
  created_at: string;
  secret_rotated_at: string | null;
}

export const OAUTH_CLIENTS_PROJECTION = 'oauth_clients';
export const OAUTH_CLIENTS_COLLECTION = 'oauth_clients';

export const oauthClientsProjection: ProjectionDefinition = {
  name: OAUTH_CLIENTS_PROJECTION,
  // 2: each application says whether it must use PKCE.
  version: 2,
  eventTypes: OAUTH_CLIENT_EVENT_TYPES,
  collections: [
    {
      name: OAUTH_CLIENTS_COLLECTION,
      indexes: [
        {
          fields: [
            ['account_id', 1],
            ['created_at', 1],
          ],
        },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as OAuthClientEvent;
    switch (event.type) {
      case 'OAuthClientRegistered': {
        const d = event.data;
        ctx.upsert(OAUTH_CLIENTS_COLLECTION, {
          id: d.client_id,
          account_id: d.account_id,
          name: d.name,
          redirect_uris: d.redirect_uris,
          client_type: d.client_type,
          pkce: d.pkce ?? 'required',
          created_at: d.registered_at,
          secret_rotated_at: null,
        } satisfies OAuthClientDoc);
        return;
      }
      case 'OAuthClientSecretRotated': {
        const doc = await ctx.get<OAuthClientDoc>(OAUTH_CLIENTS_COLLECTION, event.data.client_id);
        if (doc) ctx.upsert(OAUTH_CLIENTS_COLLECTION, { ...doc, secret_rotated_at: event.data.rotated_at });
        return;
      }
      case 'OAuthClientPkceChanged': {
        const doc = await ctx.get<OAuthClientDoc>(OAUTH_CLIENTS_COLLECTION, event.data.client_id);
        if (doc) ctx.upsert(OAUTH_CLIENTS_COLLECTION, { ...doc, pkce: event.data.pkce });
        return;
      }
      case 'OAuthClientDeleted':
        ctx.delete(OAUTH_CLIENTS_COLLECTION, event.data.client_id);
        return;
    }
  },
};
