import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { PlatformEventEnvelope, PlatformEventType } from '../../platform-event.js';

export class ListEventsQuery extends Query<ListPage<PlatformEventEnvelope>> {
  constructor(
    readonly accountId: string,
    readonly filters: { types?: PlatformEventType[] | undefined; repository?: string | undefined },
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
