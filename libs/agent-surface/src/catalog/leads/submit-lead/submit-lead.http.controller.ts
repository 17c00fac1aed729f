import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { AnonymousLimit } from '#access';
import {
  AgentAuthOptional,
  type AgentRequest,
  CatalogContextProvider,
  endpointUrl,
  isPackId,
  packCheckoutUrl,
} from '#agent-contract';
import { CommandBus } from '@nestjs/cqrs';
import { Operation, type RequestOrigin } from '#http';
import { noQuery } from '../../catalog.schemas.js';
import { buildLeadsInfo, leadsInfoSchema } from '../leads-info.document.js';
import { SubmitLeadCommand, type SubmittedLead } from './submit-lead.command.js';
import { leadReceivedSchema, submitLeadBody, type SubmitLeadBody } from './submit-lead.schema.js';

const TAGS = ['agent information'];

/** /api/v1/agents/leads: GET describes the lead form, POST submits an operator-pilot lead. */
@Controller('api/v1/agents')
export class SubmitLeadController {
  constructor(
    private readonly commands: CommandBus,
    private readonly catalog: CatalogContextProvider,
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
    return this.catalog.document('buildLeadsInfo', request, buildLeadsInfo);
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
    const ctx = this.catalog.forRequest(request);
    const packId = isPackId(lead.pack_id) ? lead.pack_id : 'pack_2499';
    const checkout = packCheckoutUrl(ctx, { objective: lead.objective, pack_id: packId, source: 'leads' });
    return this.catalog.envelope({
      lead_id: lead.lead_id,
      status: 'received' as const,
      received_at: lead.received_at,
      objective: lead.objective,
      pack_id: packId,
      pilot_days: lead.pilot_days,
      checkout_redirect_url: checkout,
      next_steps: [
        `The lead is recorded as ${lead.lead_id}; keep it for reference when the operator team writes to your contact email.`,
        `To start now, fund the pilot: POST ${endpointUrl(ctx, 'pay')} with {"objective":"${lead.objective}","pack_id":"${packId}"}, or open checkout_redirect_url.`,
        `The pilot runs ${lead.pilot_days} days from the moment it starts (payment fulfilled, or the lead converted by an operator); then the workspace is read-only until the enterprise pack is bought.`,
      ],
    });
  }
}
