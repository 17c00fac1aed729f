import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { AnonymousLimit } from '#access';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';
import { Operation, publicBaseUrl, type RequestOrigin } from '#http';
import { findPack, packForObjective, type PackId, PATHS, STARTER_PACK_ID, toObjective } from '#agent-contract';
import { Idempotency } from '../../idempotency/idempotency.service.js';
import { OpenAgentAccountCommand } from '../open-agent-account/open-agent-account.command.js';
import { issuance, PAYMENT_FLOW, packSummary } from './key-issuance.js';
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

type HttpRequest = RequestOrigin & { headers: Record<string, string | string[] | undefined> };
interface Reply {
  header(name: string, value: string): unknown;
}

const IDEMPOTENCY_HEADER = {
  description: 'Optional. The first response to a key is replayed for 24 h (with Idempotent-Replayed: true).',
};

/**
 * Self-serve onboarding (D15): one call gives an agent a key and a hosted checkout. The GET form
 * of /agents/pay is a dry run that creates nothing.
 */
@Controller('api/v1/agents')
export class PayController {
  constructor(
    private readonly commands: CommandBus,
    private readonly idempotency: Idempotency,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('pay')
  @AnonymousLimit('signup')
  @HttpCode(201)
  @Operation({
    summary: 'Get an API key and a hosted checkout in one call',
    description:
      'Creates an agent account, its first key (shown once) and a starter checkout for the pack (pack_id, else the objective’s pack, else pack_29). Every body field is optional; links may pass objective and source as query parameters. Send Idempotency-Key to make retries safe: the first response is replayed for 24 h.',
    tags: ['agent onboarding'],
    operationId: 'agentPay',
    query: payQuery,
    body: payBody,
    responses: {
      201: {
        description: 'Key and checkout issued.',
        schema: keyIssuanceSchema,
        headers: { 'Idempotent-Replayed': IDEMPOTENCY_HEADER },
      },
      409: { description: 'IDEMPOTENCY_KEY_REUSED (same key, other parameters) or IDEMPOTENCY_KEY_IN_PROGRESS.' },
      429: { description: 'RATE_LIMIT_EXCEEDED: too many accounts opened from this address (Retry-After).' },
    },
  })
  async pay(
    @Query() query: z.output<typeof payQuery>,
    @Body() body: z.output<typeof payBody>,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<KeyIssuance> {
    const baseUrl = publicBaseUrl(request, this.config);
    const objective = body?.objective ?? query.objective ?? null;
    const packId: PackId = body?.pack_id ?? packForObjective(objective);
    return this.idempotency.run(
      request,
      reply,
      'POST /api/v1/agents/pay',
      { query, body },
      async () => {
        const opened = await this.commands.execute(
          new OpenAgentAccountCommand({
            origin: 'pay',
            contactEmail: body?.contact_email ?? null,
            agentName: body?.agent_name ?? null,
            useCase: body?.use_case ?? null,
            objective,
            packId,
            source: query.source ?? null,
            sourceRef: body?.source_ref ?? null,
            baseUrl,
          }),
        );
        return issuance(opened, baseUrl);
      },
      { anonymous: true },
    );
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
  check(@Query() query: z.output<typeof payCheckQuery>, @Req() request: HttpRequest) {
    const baseUrl = publicBaseUrl(request, this.config);
    const objective = toObjective(query.objective) ?? 'starter';
    const pack = findPack(query.pack_id ?? packForObjective(query.objective))!;
    const url = new URL(`${baseUrl}${PATHS.pay}`);
    if (query.objective) url.searchParams.set('objective', query.objective);
    if (query.source) url.searchParams.set('source', query.source);
    return {
      version: 'v1',
      as_of: this.clock.now().toISOString(),
      data: {
        check: true,
        creates_nothing: true,
        objective,
        would_create: {
          account: true,
          key: { surface: 'agent', shown_once: true, auth_headers: ['x-api-key', 'Authorization: Bearer'] },
          starter_checkout: { ...packSummary(pack), bound_to_key: true },
          balance_usd: 0,
        },
        request: {
          method: 'POST',
          url: url.toString(),
          headers: {
            'content-type': 'application/json',
            'Idempotency-Key': '<a fresh UUID: retries replay the first response for 24 h>',
          },
          body_template: {
            contact_email: '<optional>',
            agent_name: '<optional>',
            use_case: '<optional>',
            objective,
            pack_id: pack.pack_id,
            source_ref: '<optional>',
          },
        },
        alternatives: {
          signup: { method: 'POST', url: `${baseUrl}${PATHS.signup}`, pack_id: STARTER_PACK_ID },
          checkout_link: {
            method: 'GET',
            url: `${baseUrl}${PATHS.checkoutLink}?pack_id=${pack.pack_id}`,
            note: 'Add key_id=<your key id> (or send the key in x-api-key): the checkout then credits its account.',
          },
        },
        payment_flow: PAYMENT_FLOW,
      },
    };
  }

  @Post('signup')
  @AnonymousLimit('signup')
  @HttpCode(201)
  @Operation({
    summary: 'Sign up: an API key with a pack_29 starter checkout',
    description:
      'Like POST /agents/pay with the starter pack (pack_29). source_ref may come as a query parameter or in the body. Honours Idempotency-Key for 24 h.',
    tags: ['agent onboarding'],
    operationId: 'agentSignup',
    query: signupQuery,
    body: signupBody,
    responses: {
      201: {
        description: 'Key and starter checkout issued.',
        schema: keyIssuanceSchema,
        headers: { 'Idempotent-Replayed': IDEMPOTENCY_HEADER },
      },
      409: { description: 'IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS.' },
      429: { description: 'RATE_LIMIT_EXCEEDED: too many accounts opened from this address (Retry-After).' },
    },
  })
  async signup(
    @Query() query: z.output<typeof signupQuery>,
    @Body() body: z.output<typeof signupBody>,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<KeyIssuance> {
    const baseUrl = publicBaseUrl(request, this.config);
    return this.idempotency.run(
      request,
      reply,
      'POST /api/v1/agents/signup',
      { query, body },
      async () => {
        const opened = await this.commands.execute(
          new OpenAgentAccountCommand({
            origin: 'signup',
            contactEmail: body?.contact_email ?? null,
            agentName: body?.agent_name ?? null,
            useCase: body?.use_case ?? null,
            objective: 'starter',
            packId: STARTER_PACK_ID,
            source: null,
            sourceRef: body?.source_ref ?? query.source_ref ?? null,
            baseUrl,
          }),
        );
        return issuance(opened, baseUrl);
      },
      { anonymous: true },
    );
  }
}
