import { Query } from '@nestjs/cqrs';
import type { PlatformEventEnvelope } from '../../platform-event.js';

export class GetEventQuery extends Query<PlatformEventEnvelope> {
  constructor(
    readonly accountId: string,
    readonly eventId: string,
  ) {
    super();
  }
}
