import { Controller, Get, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import { BrowserErrorFilter, CurrentSession, sendPage, type Session, SignedInGuard } from '#identity';
import { dashboardHomePage } from './dashboard-home.page.js';

/** GET /dashboard: signed-in people only (others are sent to /login and brought back). */
@Controller('dashboard')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class DashboardHomeController {
  @Get()
  show(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendPage(reply, 200, dashboardHomePage(session, csrfTokenFor(request, reply)));
  }
}
