import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type Session, SessionStore } from '../session.store.js';
import { GetSessionQuery } from './get-session.query.js';

@QueryHandler(GetSessionQuery)
export class GetSessionHandler implements IQueryHandler<GetSessionQuery, Session | null> {
  constructor(private readonly sessions: SessionStore) {}

  execute({ sessionToken }: GetSessionQuery): Promise<Session | null> {
    return this.sessions.find(sessionToken);
  }
}
