import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#kernel';
import { cookiesOf } from '#http';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A form whose token is missing or was not made for this browser's secret. */
export function csrfRefused(): AppError {
  return new AppError(
    'forbidden',
    'CSRF_TOKEN_INVALID',
    'This form is out of date or was sent from another site. Reload the page and send it again.',
  );
}

/**
 * Checks a form's CSRF token with @fastify/csrf-protection's own hook (registered by libs/http's
 * registerBrowserForms). Here, not in libs/http: its refusal is a page's, not an API error code.
 * The hook refuses by sending its error on the reply; here that error becomes csrfRefused(),
 * thrown like any guard's, so the route's exception filter answers it (an HTML page for pages).
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (SAFE_METHODS.has(request.method)) return true;
    const reply = http.getResponse<FastifyReply>();
    cookiesOf(request);
    return new Promise<boolean>((resolve, reject) => {
      const refusals = Object.create(reply, {
        send: {
          value: () => {
            reject(csrfRefused());
            return refusals;
          },
        },
      }) as FastifyReply;
      request.server.csrfProtection(request, refusals, () => resolve(true));
    });
  }
}
