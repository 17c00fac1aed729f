import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { type BrowserCookiePolicy, browserCookieName, browserCookiePolicy, cookiesOf, renewCsrfSecret } from '#http';

/**
 * The session cookie: the token only, `HttpOnly` (no script reads it), `SameSite=Lax` (not sent
 * with another site's form posts), `Secure` and `__Host-` when SVC_PUBLIC_URL is https. No
 * Max-Age: the server ends a session after 8 idle hours whatever the browser keeps.
 */
@Injectable()
export class SessionCookie {
  readonly name: string;
  private readonly policy: BrowserCookiePolicy;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'publicUrl'>) {
    this.policy = browserCookiePolicy(config.publicUrl);
    this.name = browserCookieName('svc_session', this.policy);
  }

  read(request: FastifyRequest): string | undefined {
    return cookiesOf(request)[this.name];
  }

  private set(reply: FastifyReply, token: string): void {
    reply.setCookie(this.name, token, this.attributes());
  }

  /**
   * A browser has just signed in: its new session, and a new CSRF secret with it, so no form
   * token from before the sign-in (like no session id from before) carries over.
   */
  signedIn(request: FastifyRequest, reply: FastifyReply, token: string): void {
    this.set(reply, token);
    renewCsrfSecret(request, reply, this.policy);
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.name, this.attributes());
  }

  private attributes() {
    return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: this.policy.secure };
  }
}
