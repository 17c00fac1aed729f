import { Body, Controller, Get, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { AnonymousLimit } from '#access';
import { AgentAuthOptional, agentEnvelope, type AgentRequest } from '#agent-contract';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Operation, publicBaseUrl, type RequestOrigin } from '#http';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';
import { noQuery } from '../../catalog.schemas.js';
import { leadsInfoSchema } from '../leads-info.document.js';
import { GetInformationDocumentQuery } from '../../get-document/get-document.query.js';
import { leadReceipt } from './lead-receipt.js';
import { SubmitLeadCommand, type SubmittedLead } from './submit-lead.command.js';
import { leadReceivedSchema, submitLeadBody, type SubmitLeadBody } from './submit-lead.schema.js';

const TAGS = ['agent information'];

/** /api/v1/agents/leads: GET describes the lead form, POST submits an operator-pilot lead. */
@Controller('api/v1/agents')
export class SubmitLeadController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('leads')
  @Operation({
    summary: 'What an operator-pilot lead submission carries',
    description:
      'The fields POST /agents/leads takes (which are required, their limits) and what happens after a submission. Public, no key.',
    tags: TAGS,
    query: noQuery,
    responses: { 200: { description: 'The lead form.', schema: leadsInfoSchema } },
  })
  describe(@Req() request: RequestOrigin) {
    return this.queries.execute(new GetInformationDocumentQuery('leads', request));
  }

  @Post('leads')
  @AnonymousLimit('write')
  @AgentAuthOptional()
  @HttpCode(201)
  @Operation({
    summary: 'Submit an operator-pilot (or enterprise workspace) lead',
    description:
      'Stored as an OperatorPilotLeadSubmitted event in stream lead-{lead_id}. Unknown fields are refused and nothing is stored. Sent with an agent key (optional), the lead names that key’s account: when an operator converts it, the tenant goes on that account, so its credits and keys follow. To start at once without an operator, buy the pack instead (checkout_redirect_url): the paying key gets the workspace at fulfilment.',
    tags: TAGS,
    body: submitLeadBody,
    responses: {
      201: { description: 'The lead was received.', schema: leadReceivedSchema },
      400: { description: 'VALIDATION_FAILED; nothing stored.' },
      429: { description: 'RATE_LIMIT_EXCEEDED: too many writes from this address (Retry-After).' },
    },
  })
  async submit(@Req() request: RequestOrigin & AgentRequest, @Body() body: SubmitLeadBody) {
    const caller = request.principal
      ? { accountId: request.principal.accountId, keyId: request.principal.keyId }
      : undefined;
    const lead = await this.commands.execute<SubmitLeadCommand, SubmittedLead>(
      new SubmitLeadCommand(body, request.id, caller),
    );
    return agentEnvelope(this.clock.now(), leadReceipt(lead, { baseUrl: publicBaseUrl(request, this.config) }));
  }
}
