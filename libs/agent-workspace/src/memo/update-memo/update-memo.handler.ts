import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { memoDecider } from '../../memo.decider.js';
import { memoStream } from '../../workspace.events.js';
import { MEMOS_COLLECTION, type MemoDoc, WORKSPACE_PROJECTION } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import type { MemoView } from '../../workspace.views.js';
import { UpdateMemoCommand } from './update-memo.command.js';

/** The memo stream is the authority (its versions); the answer comes from the decision, not the read model. */
@CommandHandler(UpdateMemoCommand)
export class UpdateMemoHandler implements ICommandHandler<UpdateMemoCommand, MemoView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly reads: WorkspaceReads,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ caller, companyId, body, expectedVersion }: UpdateMemoCommand): Promise<MemoView> {
    await this.reads.company(caller.tenantId, companyId);
    const result = await decideAndAppend(this.events, memoStream(caller.tenantId, companyId), memoDecider, {
      type: 'UpdateMemo',
      tenantId: caller.tenantId,
      companyId,
      body,
      expectedVersion,
      by: caller.keyId,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(result.position, [WORKSPACE_PROJECTION]);
    const written = result.events.at(-1)?.data;
    if (written)
      return {
        company_id: companyId,
        version: written.version,
        body: written.body,
        updated_at: written.updated_at,
        updated_by: written.updated_by,
      };
    // The same body again: nothing written, the current memo answers (read model for its metadata).
    const current = await this.reads.collection<MemoDoc>(MEMOS_COLLECTION).get(companyId);
    return {
      company_id: companyId,
      version: result.state.version,
      body: result.state.body,
      updated_at: current?.updated_at ?? null,
      updated_by: current?.updated_by ?? null,
    };
  }
}
