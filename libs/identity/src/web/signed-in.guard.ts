import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AppError } from '#kernel';
import { GetSessionQuery } from '../sessions/get-session/get-session.query.js';
import type { Session } from '../sessions/session.store.js';
import { SessionCookie } from './session-cookie.js';

const sessions = new WeakMap<object, Session>();

/** Answered by BrowserErrorFilter with a redirect to the sign-in page. */
export function signInRequired(): AppError {
  return new AppError('unauthenticated', 'SIGN_IN_REQUIRED', 'Sign in to see this page.');
}

/** Pages for signed-in people: the browser's session, or off to /login (and back after). */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(
    private readonly queries: QueryBus,
    private readonly cookie: SessionCookie,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const session = await this.queries.execute(new GetSessionQuery(this.cookie.read(request)));
    if (!session) throw signInRequired();
    sessions.set(request, session);
    return true;
  }
}

/** The session SignedInGuard found for this request (for guards that run after it). */
export function sessionOf(request: object): Session {
  const session = sessions.get(request);
  if (!session) throw signInRequired();
  return session;
}

/** The session SignedInGuard found for this request. */
export const CurrentSession = createParamDecorator((_: unknown, context: ExecutionContext): Session => {
  const session = sessions.get(context.switchToHttp().getRequest<object>());
  if (!session) throw signInRequired();
  return session;
});
