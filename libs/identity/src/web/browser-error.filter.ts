import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from '#http';
import { errorPage } from './error.page.js';
import { redirect, sendPage } from './page-layout.js';
import { safeNext } from './safe-next.js';

/**
 * Errors of the browser pages as pages, not JSON: a missing session is a redirect to the
 * sign-in page (coming back afterwards), anything else a page saying what happened, with the
 * error's headers (Retry-After).
 */
@Catch()
export class BrowserErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('BrowserPages');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const path = request.url.split('?')[0] ?? '/';
    const { error, unexpected } = toHttpError(exception, { method: request.method, path });
    if (unexpected) {
      const stack = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      this.logger.error(`${request.method} ${path} failed (request ${request.id}): ${stack}`);
    }
    if (reply.sent) return;
    if (error.code === 'SIGN_IN_REQUIRED') {
      const back = request.method === 'GET' ? safeNext(request.url) : undefined;
      redirect(reply, back ? `/login?next=${encodeURIComponent(back)}` : '/login');
      return;
    }
    // The anonymous write limit speaks to API clients; a person reads this instead.
    const message =
      error.code === 'RATE_LIMIT_EXCEEDED'
        ? `Too many requests from your address. Try again in ${String(error.extra.retry_after ?? 60)} seconds.`
        : error.message;
    sendPage(reply, error.status, errorPage(error.status, message, error.code), error.headers);
  }
}
