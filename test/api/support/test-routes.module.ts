import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import { z } from 'zod';
import { AppError } from '#kernel';
import { Operation } from '#http';
import { EventStoreUnavailableError, WrongExpectedRevisionError } from '#eventstore';
import { ProjectionTimeoutError } from '#projections';

export const thingBody = z.object({
  name: z.string().min(1),
  count: z.number().int().min(0).optional(),
  nested: z.strictObject({ flag: z.boolean() }).optional(),
});

export const thingQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });
export const thingParams = z.object({ id: z.string().regex(/^thing_[a-z0-9]+$/, 'expected thing_…') });

/** Test-only routes exercising validation, errors and the problem+json surface. */
@Controller()
export class TestRoutesController {
  @Post('test/things')
  @Operation({
    summary: 'Create a test thing',
    tags: ['test'],
    body: thingBody,
    responses: {
      201: { description: 'Created.', schema: z.object({ name: z.string(), count: z.number().optional() }) },
    },
    security: ['bearer'],
  })
  create(@Body() body: z.output<typeof thingBody>) {
    return body;
  }

  @Get('test/things/:id')
  @Operation({
    summary: 'Read a test thing',
    tags: ['test'],
    params: thingParams,
    query: thingQuery,
    responses: {
      200: { description: 'The thing.', schema: z.object({ id: z.string(), limit: z.number().optional() }) },
      404: { description: 'No such thing.' },
    },
  })
  read(@Param() params: z.output<typeof thingParams>, @Query() query: z.output<typeof thingQuery>) {
    return { id: params.id, limit: query.limit };
  }

  @Get('test/boom')
  boom(): never {
    throw new Error('secret internals at /srv/app/db.sqlite password=hunter2');
  }

  @Get('test/conflict')
  conflict(): never {
    throw new WrongExpectedRevisionError('credits-acct_1', 3, 4);
  }

  @Get('test/lagging')
  lagging(): never {
    throw new ProjectionTimeoutError(42, [{ name: 'repositories', position: 40 }], 3000);
  }

  @Get('test/unavailable')
  unavailable(): never {
    throw new EventStoreUnavailableError('connection refused 10.0.0.5:2113');
  }

  @Post('api/v1/test/things')
  @Operation({
    summary: 'Create a test thing (agent surface)',
    tags: ['test'],
    body: thingBody,
    responses: {
      201: { description: 'Created.', schema: z.object({ name: z.string(), count: z.number().optional() }) },
    },
    security: ['apiKey', 'bearer'],
  })
  createAgent(@Body() body: z.output<typeof thingBody>) {
    return body;
  }

  @Get('api/v1/test/payment')
  payment(): never {
    throw new AppError('payment_required', 'INSUFFICIENT_CREDITS', 'Not enough credits.', { price_usd: 2.5 });
  }
}

@Module({ controllers: [TestRoutesController] })
export class TestRoutesModule {}
