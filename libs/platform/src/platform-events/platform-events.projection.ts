import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import { type PlatformEventEnvelope, PLATFORM_EVENT_SOURCE_TYPES, toPlatformEvent } from './platform-event.js';

/**
 * A platform event as stored in the `platform_events` read model: the envelope's fields, the
 * owning account, and where it came from. `position` is the source event's global position:
 * strictly increasing in commit order, so a consumer can follow the collection with
 * `{position: {$gt: last}}` sorted by position (the index exists).
 */
export interface PlatformEventDoc extends PlatformEventEnvelope {
  [key: string]: unknown;
  account_id: string;
  position: number;
  source: { stream: string; event_id: string; type: string };
}

export const PLATFORM_EVENTS_PROJECTION = 'platform-events';
export const PLATFORM_EVENTS_COLLECTION = 'platform_events';

/** The envelope of a stored platform event (what receivers and `GET /v1/events` get). */
export function envelopeOf(doc: PlatformEventDoc): PlatformEventEnvelope {
  return {
    id: doc.id,
    type: doc.type,
    created: doc.created,
    data: doc.data,
    ...(doc.repository ? { repository: { id: doc.repository.id, name: doc.repository.name } } : {}),
  };
}

/**
 * Every platform-domain event that publishes one (toPlatformEvent) becomes one document, keyed by
 * its derived `evt_` id: applying an event twice, or rebuilding from position 0, writes the same
 * document.
 */
export const platformEventsProjection: ProjectionDefinition = {
  name: PLATFORM_EVENTS_PROJECTION,
  version: 1,
  eventTypes: PLATFORM_EVENT_SOURCE_TYPES,
  collections: [
    {
      name: PLATFORM_EVENTS_COLLECTION,
      indexes: [
        {
          fields: [
            ['account_id', 1],
            ['position', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['type', 1],
            ['position', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['repository.id', 1],
            ['position', -1],
          ],
        },
        { fields: [['position', 1]] },
      ],
    },
  ],
  handle(event: RecordedEvent, ctx) {
    const published = toPlatformEvent(event);
    if (!published) return;
    const doc: PlatformEventDoc = {
      ...published.envelope,
      account_id: published.account_id,
      position: event.position,
      source: { stream: event.stream, event_id: event.id, type: event.type },
    };
    ctx.upsert(PLATFORM_EVENTS_COLLECTION, doc);
  },
};
