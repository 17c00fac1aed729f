import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { followUpDecider } from '../../follow-up.decider.js';
import { followUpStream } from '../../workspace.events.js';
import {
  FOLLOW_UPS_COLLECTION,
  type FollowUpDoc,
  followUpDocId,
  WORKSPACE_PROJECTION,
} from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { type FollowUpView, followUpView } from '../../workspace.views.js';
import { UpsertFollowUpCommand } from './upsert-follow-up.command.js';

@CommandHandler(UpsertFollowUpCommand)
export class UpsertFollowUpHandler implements ICommandHandler<
  UpsertFollowUpCommand,
  { followUp: FollowUpView; created: boolean }
> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly reads: WorkspaceReads,
  ) {}

  async execute({ caller, companyId, key: given, body }: UpsertFollowUpCommand) {
    await this.reads.company(caller.tenantId, companyId);
    const key = given ?? this.ids.next('fu');
    const result = await decideAndAppend(
      this.events,
      followUpStream(caller.tenantId, companyId, key),
      followUpDecider,
      {
        type: 'UpsertFollowUp',
        tenantId: caller.tenantId,
        companyId,
        key,
        fields: {
          title: body.title,
          due_at: new Date(body.due_at).toISOString(),
          assignee: body.assignee ?? null,
          status: body.status,
        },
        by: caller.keyId,
        now: this.clock.now(),
      },
    );
    await this.readYourWrites.waitFor(result.position, [WORKSPACE_PROJECTION]);
    const doc = await this.reads.collection<FollowUpDoc>(FOLLOW_UPS_COLLECTION).get(followUpDocId(companyId, key));
    if (!doc)
      throw Errors.unavailable(
        'The follow-up was written; its read model is behind. Read it again shortly.',
        'READ_MODEL_BEHIND',
      );
    const created = result.events.some((e) => e.type === 'WorkspaceFollowUpUpserted' && e.data.created);
    return { followUp: followUpView(doc), created };
  }
}
