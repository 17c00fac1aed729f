import { applyDecorators, Body, Controller, Get, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import { AnonymousLimit } from '#access';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { Operation, type OperationSpec, publicBaseUrl, type RequestOrigin } from '#http';
import { STARTER_PACK_ID } from '#agent-contract';
import {
  IDEMPOTENCY_CONFLICTS,
  Idempotent,
  IDEMPOTENT_REPLAY_HEADERS,
  queryAndBody,
} from '../../idempotency/idempotent.interceptor.js';
import { OpenAgentAccountCommand } from '../open-agent-account/open-agent-account.command.js';
import { issuance } from './key-issuance.js';
import { CheckPayQuery } from './pay-check.query.js';
import {
  payCheckSchema,
  type KeyIssuance,
  keyIssuanceSchema,
  payBody,
  payCheckQuery,
  payQuery,
  signupBody,
  signupQuery,
} from './pay.schema.js';

/**
 * What POST /agents/pay and /agents/signup share (D15): each opens an account, so each is
 * limited per address, answers 201 with a key issuance and replays it for an Idempotency-Key
 * (`scope`: the stored replays' operation, as before this decorator).
 */
function OpensAccount(
  scope: string,
  operation: Pick<OperationSpec, 'summary' | 'description' | 'operationId' | 'query' | 'body'> & { created: string },
): MethodDecorator {
  const { created, ...spec } = operation;
  return applyDecorators(
    AnonymousLimit('signup'),
    HttpCode(201),
    Idempotent(scope, { anonymous: true, parameters: queryAndBody }),
    Operation({
      ...spec,
      tags: ['agent onboarding'],
      responses: {
        201: { description: created, schema: keyIssuanceSchema, headers: IDEMPOTENT_REPLAY_HEADERS },
        ...IDEMPOTENCY_CONFLICTS,
        429: { description: 'RATE_LIMIT_EXCEEDED: too many accounts opened from this address (Retry-After).' },
      },
    }),
  );
}

/** Who opens the account, as both bodies give it. */
const applicant = (body: { contact_email?: string; agent_name?: string; use_case?: string } | undefined) => ({
  contactEmail: body?.contact_email ?? null,
  agentName: body?.agent_name ?? null,
  useCase: body?.use_case ?? null,
});

/**
 * Self-serve onboarding (D15): one call gives an agent a key and a hosted checkout. The GET form
 * of /agents/pay is a dry run that creates nothing.
 */
@Controller('api/v1/agents')
export class PayController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('pay')
  @OpensAccount('POST /api/v1/agents/pay', {
    summary: 'Get an API key and a hosted checkout in one call',
    description:
      'Creates an agent account, its first key (shown once) and a starter checkout for the pack (pack_id, else the objective’s pack, else pack_29). Every body field is optional; links may pass objective and source as query parameters. Send Idempotency-Key to make retries safe: the first response is replayed for 24 h.',
    operationId: 'agentPay',
    query: payQuery,
    body: payBody,
    created: 'Key and checkout issued.',
  })
  pay(
    @Query() query: z.output<typeof payQuery>,
    @Body() body: z.output<typeof payBody>,
    @Req() request: RequestOrigin,
  ): Promise<KeyIssuance> {
    return this.open(request, {
      origin: 'pay',
      ...applicant(body),
      objective: body?.objective ?? query.objective ?? null,
      packId: body?.pack_id ?? null,
      source: query.source ?? null,
      sourceRef: body?.source_ref ?? null,
    });
  }

  @Get('pay')
  @Operation({
    summary: 'Check what POST /agents/pay would do (creates nothing)',
    description:
      'A read-only check call: the pack, price and credits a POST with these parameters would sell, and the request to send.',
    tags: ['agent onboarding'],
    operationId: 'agentPayCheck',
    query: payCheckQuery,
    responses: { 200: { description: 'What a POST would do.', schema: payCheckSchema } },
  })
  check(@Query() query: z.output<typeof payCheckQuery>, @Req() request: RequestOrigin) {
    return this.queries.execute(new CheckPayQuery(query, publicBaseUrl(request, this.config)));
  }

  @Post('signup')
  @OpensAccount('POST /api/v1/agents/signup', {
    summary: 'Sign up: an API key with a pack_29 starter checkout',
    description:
      'Like POST /agents/pay with the starter pack (pack_29). source_ref may come as a query parameter or in the body. Honours Idempotency-Key for 24 h.',
    operationId: 'agentSignup',
    query: signupQuery,
    body: signupBody,
    created: 'Key and starter checkout issued.',
  })
  signup(
    @Query() query: z.output<typeof signupQuery>,
    @Body() body: z.output<typeof signupBody>,
    @Req() request: RequestOrigin,
  ): Promise<KeyIssuance> {
    return this.open(request, {
      origin: 'signup',
      ...applicant(body),
      objective: 'starter',
      packId: STARTER_PACK_ID,
      source: null,
      sourceRef: body?.source_ref ?? query.source_ref ?? null,
    });
  }

  /** Opens the account; the answer's links (and the checkout's return pages) use this request's base URL. */
  private async open(
    request: RequestOrigin,
    input: Omit<OpenAgentAccountCommand['input'], 'baseUrl'>,
  ): Promise<KeyIssuance> {
    const baseUrl = publicBaseUrl(request, this.config);
    return issuance(await this.commands.execute(new OpenAgentAccountCommand({ ...input, baseUrl })), baseUrl);
  }
}
