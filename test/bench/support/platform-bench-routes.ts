import { Controller, Get, Module } from '@nestjs/common';
import { PlatformAuth, RequireScope } from '#access';

/** The body of an empty list page: what bare Fastify, the plain and the no-op routes answer. */
export const EMPTY_PAGE = { data: [], has_more: false, next_cursor: null };

/** A plain Nest route of the api app (no guard): the framework floor. */
@Controller('bench/plain')
class PlainNestController {
  @Get()
  get() {
    return EMPTY_PAGE;
  }
}

/** The access layer alone: the same guards as `GET /v1/repositories`, no query. */
@Controller('bench/authenticated-noop')
@PlatformAuth()
class AuthenticatedNoopController {
  @Get()
  @RequireScope('read')
  get() {
    return EMPTY_PAGE;
  }
}

/** `/bench/plain` and `/bench/authenticated-noop`, for the platform benchmark and profiling. */
@Module({ controllers: [PlainNestController, AuthenticatedNoopController] })
export class PlatformBenchRoutesModule {}
