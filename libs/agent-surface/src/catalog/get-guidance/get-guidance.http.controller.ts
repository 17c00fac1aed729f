import { Controller, Get, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation, type RequestOrigin } from '#http';
import { AgentAuthOptional, type AgentRequest } from '#agent-contract';
import { guidanceSchema, quoteQuery, recommendTierQuery } from '../guidance.document.js';
import { GetGuidanceQuery } from './get-guidance.query.js';

// Operation ids are the ones these routes had when one controller served them all (stable for SDKs).
const TAGS = ['agent information'];

/** Purchase guidance: the same document under two names, each with its default attribution. */
@Controller('api/v1/agents')
@AgentAuthOptional()
export class GetGuidanceController {
  constructor(private readonly queries: QueryBus) {}

  @Get('quote')
  @Operation({
    operationId: 'AgentsInformationController_getQuote',
    summary: 'Purchase guidance for an objective, a segment or a pack',
    description:
      "The option of the objective's pack (or of `pack_id`) has preferred_for_objective true and is primary_buy_now. " +
      'Objectives: starter and starter_proof → pack_29, growth → pack_499, operator_pilot → pack_2499, enterprise → pack_10000; ' +
      'a segment without objective implies one (builder → starter, operator → operator_pilot, enterprise → enterprise). ' +
      '`source` is carried into every checkout link (default quote). Sent with the key (x-api-key), the links are signed for it and bind in any browser; a bare `key_id` is carried as is (it binds by itself too).',
    tags: TAGS,
    query: quoteQuery,
    responses: { 200: { description: 'Purchase guidance.', schema: guidanceSchema } },
  })
  getQuote(@Req() request: RequestOrigin & AgentRequest, @Query() query: z.output<typeof quoteQuery>) {
    return this.queries.execute(
      new GetGuidanceQuery({ ...query, source: query.source ?? 'quote' }, request, request.principal?.keyId ?? null),
    );
  }

  @Get('recommend-tier')
  @Operation({
    operationId: 'AgentsInformationController_getRecommendTier',
    summary: 'Recommended pack for an objective; aggressive=true recommends the next larger pack',
    description:
      "Same document as /agents/quote. With aggressive=true the preferred option is the pack after the objective's (more bonus credits).",
    tags: TAGS,
    query: recommendTierQuery,
    responses: { 200: { description: 'Purchase guidance.', schema: guidanceSchema } },
  })
  getRecommendTier(@Req() request: RequestOrigin & AgentRequest, @Query() query: z.output<typeof recommendTierQuery>) {
    return this.queries.execute(
      new GetGuidanceQuery(
        { ...query, source: query.source ?? 'recommend-tier' },
        request,
        request.principal?.keyId ?? null,
      ),
    );
  }
}
