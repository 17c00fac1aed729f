import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { invalidCursor, type ListPage } from '#http';
import type { WorkspaceEvent } from '../../workspace.events.js';
import { memoStream } from '../../workspace.events.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import type { MemoView } from '../../workspace.views.js';
import { ListMemoVersionsQuery } from './list-memo-versions.query.js';

type MemoUpdated = Extract<WorkspaceEvent, { type: 'WorkspaceMemoUpdated' }>;

/** The cursor is the version to continue below (`v<n>`). */
@QueryHandler(ListMemoVersionsQuery)
export class ListMemoVersionsHandler implements IQueryHandler<ListMemoVersionsQuery, ListPage<MemoView>> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly reads: WorkspaceReads,
  ) {}

  async execute({ tenantId, companyId, limit, cursor }: ListMemoVersionsQuery): Promise<ListPage<MemoView>> {
    await this.reads.company(tenantId, companyId);
    let below: number | undefined;
    if (cursor !== undefined) {
      const match = /^v(\d{1,9})$/.exec(cursor);
      if (!match) throw invalidCursor();
      below = Number(match[1]);
    }
    // Version n is the event at revision n - 1.
    const fromRevision = below === undefined ? 'end' : below - 2;
    const data: MemoView[] = [];
    if (fromRevision === 'end' || fromRevision >= 0) {
      for await (const recorded of this.events.readStream(memoStream(tenantId, companyId), {
        direction: 'backwards',
        fromRevision,
        maxCount: limit + 1,
      })) {
        const d = (recorded as unknown as MemoUpdated).data;
        data.push({
          company_id: companyId,
          version: d.version,
          body: d.body,
          updated_at: d.updated_at,
          updated_by: d.updated_by,
        });
      }
    }
    const hasMore = data.length > limit;
    const page = data.slice(0, limit);
    return { data: page, has_more: hasMore, next_cursor: hasMore ? `v${page.at(-1)!.version}` : null };
  }
}
