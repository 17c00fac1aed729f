import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { leadDecider, leadStream } from '#agent-workspace';
import { SubmitLeadCommand, type SubmittedLead } from './submit-lead.command.js';

/** Appends the lead to a new `lead-{id}` stream. No read model waits on it: nothing to wait for. */
@CommandHandler(SubmitLeadCommand)
export class SubmitLeadHandler implements ICommandHandler<SubmitLeadCommand, SubmittedLead> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ body, requestId, caller }: SubmitLeadCommand): Promise<SubmittedLead> {
    const leadId = this.ids.next('lead');
    const { events, position } = await decideAndAppend(
      this.events,
      leadStream(leadId),
      leadDecider,
      {
        type: 'SubmitLead',
        leadId,
        contactEmail: body.contact_email,
        company: body.company,
        agentName: body.agent_name,
        useCase: body.use_case,
        objective: body.objective,
        packId: body.pack_id,
        expectedMonthlyCalls: body.expected_monthly_calls,
        message: body.message,
        sourceRef: body.source_ref,
        ...(caller ? { caller } : {}),
        now: this.clock.now(),
      },
      requestId ? { metadata: { request_id: requestId } } : {},
    );
    const submitted = events[0];
    if (submitted?.type !== 'OperatorPilotLeadSubmitted' || position === null)
      throw new Error('SubmitLead produced no event');
    return {
      lead_id: leadId,
      objective: submitted.data.objective,
      pack_id: submitted.data.pack_id,
      pilot_days: submitted.data.pilot_days,
      received_at: submitted.data.submitted_at,
      position,
    };
  }
}
