import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Doc, Filter, FindOptions } from '#documents';
import type { NewEvent } from '#eventstore';
import { type EmbeddedProjections, openEmbeddedProjections } from '#projections/testing';
import { EVENTS_COLLECTION, workspaceProjection } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { memoStream, type WorkspaceEvent } from '../../workspace.events.js';
import { ListTenantEventsHandler } from './list-events.handler.js';
import { ListTenantEventsQuery } from './list-events.query.js';

const memo = (tenantId: string, version: number): WorkspaceEvent => ({
  type: 'WorkspaceMemoUpdated',
  data: {
    tenant_id: tenantId,
    company_id: 'wsc_1',
    version,
    body: `v${version}`,
    updated_by: 'key_1',
    updated_at: new Date(Date.UTC(2026, 0, 1, 0, version)).toISOString(),
  },
});

/** Reads that remember the finds they were asked for. */
class RecordingReads extends WorkspaceReads {
  readonly finds: Array<{ filter?: Filter; options?: FindOptions }> = [];
  override collection<T extends Doc>(name: string) {
    const inner = super.collection<T>(name);
    return {
      ...inner,
      find: (filter?: Filter, options?: FindOptions) => {
        this.finds.push({ filter, options });
        return inner.find(filter, options);
      },
    };
  }
}

describe('the tenant event stream over the embedded store', () => {
  let p: EmbeddedProjections;
  let reads: RecordingReads;
  let handler: ListTenantEventsHandler;

  before(async () => {
    p = await openEmbeddedProjections('tenant-events', [workspaceProjection]);
    // Two tenants, their events interleaved in the global order; tn_a2 shares tn_a's prefix.
    for (let v = 1; v <= 7; v++)
      for (const tenant of ['tn_a', 'tn_a2', 'tn_b'])
        await p.events.append(memoStream(tenant, 'wsc_1'), [memo(tenant, v) as NewEvent]);
    await p.runner.start();
    await p.runner.waitFor(await p.events.headPosition(), { timeoutMs: 30_000 });
    reads = new RecordingReads(p.runner.store);
    handler = new ListTenantEventsHandler(reads);
  });
  after(() => p.close());

  const page = (tenant: string, afterCursor: string | undefined, limit: number) =>
    handler.execute(new ListTenantEventsQuery(tenant, afterCursor, limit, undefined, 0));

  it("pages through one tenant's events, in order, each once, with their data", async () => {
    const versions: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const result = await page('tn_a', cursor, 3);
      pages++;
      for (const e of result.data) {
        assert.equal(e.type, 'workspace.memo.updated');
        assert.deepEqual(Object.keys(e.data).sort(), ['body', 'company_id', 'updated_at', 'updated_by', 'version']);
        versions.push(e.data.version as number);
      }
      cursor = result.next_cursor;
      if (!result.has_more) break;
    }
    assert.deepEqual(versions, [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(pages, 3);
    const end = await page('tn_a', cursor, 3);
    assert.deepEqual(end, { data: [], next_cursor: cursor, has_more: false }, 'the end of the stream stays put');
  });

  it("a page is one range read of the store's key: no index, no lookup per event", async () => {
    reads.finds.length = 0;
    await page('tn_b', undefined, 100);
    const [{ filter, options }] = reads.finds as [{ filter: Filter; options: FindOptions }];
    const physical = (await p.documents.listCollections()).find((c) => c.startsWith(`${EVENTS_COLLECTION}__g`))!;
    const plan = p.documents.explainFind(physical, filter, options).flatMap((s) => s.plan);
    assert.ok(
      plan.some((line) => /USING PRIMARY KEY \(id>\? AND id<\?\)/.test(line)),
      `plan: ${plan.join(' | ')}`,
    );
    assert.ok(!plan.some((line) => /TEMP B-TREE|USING INDEX/.test(line)), `plan: ${plan.join(' | ')}`);
  });
});
