import { Controller, Get, Module, Query } from '@nestjs/common';
import { z } from 'zod';
import { type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { Metered } from '#agent-billing';
import { Errors } from '#kernel';
import { Operation } from '#http';

const failQuery = z.object({ status: z.coerce.number().int().min(400).max(599).default(500) });

/** How many times each handler actually ran: proves that an exhausted account does no work. */
export const handlerRuns = { discovery: 0, score: 0, fails: 0 };

/**
 * Test-only paid routes proving the metering contract until real data routes exist: a
 * successful call is charged, a failing one is not.
 */
@Controller('api/v1/test-paid')
export class PaidTestController {
  @Get('discovery')
  @Metered('read.discovery_top')
  @Operation({
    summary: 'Test paid route (read.discovery_top)',
    tags: ['test'],
    responses: {
      200: {
        description: 'Data.',
        schema: z.object({
          data: z.array(z.object({ rank: z.number(), company: z.string() })),
          account_id: z.string(),
        }),
      },
      402: { description: 'INSUFFICIENT_CREDITS.' },
    },
    security: ['apiKey', 'bearer'],
  })
  discovery(@CurrentAgent() agent: AgentPrincipal) {
    handlerRuns.discovery++;
    return { data: [{ rank: 1, company: 'Acme Robotics' }], account_id: agent.accountId };
  }

  /** The same data unmetered and unauthenticated (benchmarks: the app's cost without billing). */
  @Get('free')
  free() {
    return { data: [{ rank: 1, company: 'Acme Robotics' }], account_id: 'acct_01JBENCHBENCHBENCHBENCHBENC' };
  }

  @Get('score')
  @Metered('read.company_score')
  score() {
    handlerRuns.score++;
    return { score: 87 };
  }

  @Get('fails')
  @Metered('read.company_profile')
  @Operation({
    summary: 'Test paid route that fails',
    tags: ['test'],
    query: failQuery,
    responses: { 404: { description: 'Always fails.' } },
  })
  fails(@Query() query: z.output<typeof failQuery>) {
    handlerRuns.fails++;
    if (query.status === 404) throw Errors.notFound('No such company.', 'COMPANY_NOT_FOUND');
    throw new Error('handler blew up');
  }
}

@Module({ controllers: [PaidTestController] })
export class PaidRoutesModule {}
