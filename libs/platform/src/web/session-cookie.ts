import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { type BrowserCookiePolicy, browserCookieName, browserCookiePolicy, cookiesOf } from '#http';

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

  set(reply: FastifyReply, token: string): void {
    reply.setCookie(this.name, token, this.attributes());
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.name, this.attributes());
  }

  private attributes() {
    return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: this.policy.secure };
  }
}
