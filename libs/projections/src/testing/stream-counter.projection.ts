import type { ProjectionDefinition } from '../projection.port.js';

/**
 * Sample projection for the runner's tests and benchmark: counts `Counted` events per stream
 * (read-modify-write, the case idempotence is hard for), keeps a grand total, deletes a stream's
 * document on `Removed`, and ignores every other event type.
 */
export interface StreamCount {
  id: string;
  count: number;
  last_revision: number;
  [key: string]: unknown;
}

export function streamCounterProjection(
  options: { name?: string; version?: number; tag?: string } = {},
): ProjectionDefinition {
  return {
    name: options.name ?? 'stream_counter',
    version: options.version ?? 1,
    eventTypes: ['Counted', 'Removed'],
    collections: [
      { name: `${options.name ?? 'stream_counter'}_streams`, indexes: [{ fields: [['count', -1]] }] },
      { name: `${options.name ?? 'stream_counter'}_totals` },
    ],
    async handle(event, ctx) {
      const streams = `${options.name ?? 'stream_counter'}_streams`;
      const totals = `${options.name ?? 'stream_counter'}_totals`;
      const total = (await ctx.get<{ id: string; count: number }>(totals, 'all')) ?? { id: 'all', count: 0 };
      if (event.type === 'Removed') {
        ctx.delete(streams, event.stream);
      } else {
        const doc = (await ctx.get<StreamCount>(streams, event.stream)) ?? {
          id: event.stream,
          count: 0,
          last_revision: -1,
        };
        doc.count += 1;
        doc.last_revision = event.revision;
        if (options.tag) doc.tag = options.tag;
        ctx.upsert(streams, doc);
      }
      total.count += 1;
      ctx.upsert(totals, total);
    },
  };
}
