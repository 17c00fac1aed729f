import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Filter } from '#documents';
import { EVENTS_COLLECTION, type TenantEventDoc, tenantEventRange } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { tenantEventView } from '../../workspace.views.js';
import { decodeEventCursor, encodeEventCursor } from './event-cursor.js';
import { ListTenantEventsQuery, type TenantEventPage } from './list-events.query.js';

/** How often a long poll looks at the read model again (any process's projection fills it). */
const POLL_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@QueryHandler(ListTenantEventsQuery)
export class ListTenantEventsHandler implements IQueryHandler<ListTenantEventsQuery, TenantEventPage> {
  constructor(private readonly reads: WorkspaceReads) {}

  async execute({ tenantId, after, limit, types, waitSeconds }: ListTenantEventsQuery): Promise<TenantEventPage> {
    const from = decodeEventCursor(after);
    const filter: Filter = { id: tenantEventRange(tenantId, from) };
    if (types?.length) filter.type = { $in: types };
    // The deadline counts on the monotonic clock: a long poll is about waiting, not about dates.
    const deadline = performance.now() + waitSeconds * 1000;
    for (;;) {
      const result = await this.reads
        .collection<TenantEventDoc>(EVENTS_COLLECTION)
        .find(filter, { sort: [['id', 1]], limit: limit + 1 });
      if (result.items.length > 0 || performance.now() + POLL_MS > deadline) {
        const page = result.items.slice(0, limit);
        const last = page.at(-1)?.position ?? from;
        return {
          data: page.map(tenantEventView),
          next_cursor: encodeEventCursor(last),
          has_more: result.items.length > limit,
        };
      }
      await sleep(POLL_MS);
    }
  }
}
