import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '#kernel';
import { ProjectionStore } from '#projections';
import { getOwned } from '../../../shared/find-page.js';
import type { PlatformEventEnvelope } from '../../platform-event.js';
import {
  envelopeOf,
  PLATFORM_EVENTS_COLLECTION,
  PLATFORM_EVENTS_PROJECTION,
  type PlatformEventDoc,
} from '../../platform-events.projection.js';
import { GetEventQuery } from './get-event.query.js';

@QueryHandler(GetEventQuery)
export class GetEventHandler implements IQueryHandler<GetEventQuery, PlatformEventEnvelope> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute(query: GetEventQuery): Promise<PlatformEventEnvelope> {
    const collection = this.projections.collection<PlatformEventDoc>(
      PLATFORM_EVENTS_PROJECTION,
      PLATFORM_EVENTS_COLLECTION,
    );
    return envelopeOf(
      await getOwned(collection, query.eventId, query.accountId, () =>
        Errors.notFound('No such event.', 'EVENT_NOT_FOUND'),
      ),
    );
  }
}
