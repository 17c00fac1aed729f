import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_PUBLIC_EVENT_TYPES } from '../../workspace.events.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { type ListEventsQuery, listEventsQuery } from '../../workspace.schemas.js';
import { ListTenantEventsQuery } from './list-events.query.js';
import { tenantEventPageSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/events')
export class ListTenantEventsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @WorkspaceRoute('read.workspace.events')
  @Operation({
    summary: 'Read the tenant event stream',
    description: `\`{data: [{id, type, occurred_at, data}], next_cursor, has_more}\`, oldest first. Pass \`next_cursor\` as \`after\` to continue (it is kept even when a page is empty); from the start without it. \`types\` filters (${WORKSPACE_PUBLIC_EVENT_TYPES.join(', ')}). \`wait_seconds\` (≤ 30) long-polls: when nothing is new the answer waits for the first event, so an agent pays one call per wait, not per empty poll. Ids are stable: a replay from the start returns the same events in the same order. Meter \`read.workspace.events\` per successful call.`,
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceListEvents',
    query: listEventsQuery,
    responses: {
      200: {
        description: 'A page of the stream in the envelope.',
        schema: envelopeSchema(tenantEventPageSchema, 'TenantEventPageResponse'),
      },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async list(@Query() query: ListEventsQuery, @CurrentTenant() tenant: TenantCaller) {
    const page = await this.queries.execute(
      new ListTenantEventsQuery(tenant.tenantId, query.after, query.limit, query.types, query.wait_seconds),
    );
    return agentEnvelope(this.clock.now(), page);
  }
}
