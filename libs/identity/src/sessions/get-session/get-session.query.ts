import { Query } from '@nestjs/cqrs';
import type { Session } from '../session.store.js';

/** The live session of a browser's token (its idle expiry moved forward), or null. */
export class GetSessionQuery extends Query<Session | null> {
  constructor(readonly sessionToken: string | undefined) {
    super();
  }
}
