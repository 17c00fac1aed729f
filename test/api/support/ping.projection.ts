import { Controller, Get, Module, Param } from '@nestjs/common';
import { Errors } from '#kernel';
import { ProjectionsModule } from '#projections';
import { type ProjectionDefinition, ProjectionStore } from '#projections';

interface PingDoc {
  id: string;
  count: number;
  last: number;
  [key: string]: unknown;
}

/** A sample projection: counts `Pinged` events per stream. */
export const pingProjection: ProjectionDefinition = {
  name: 'test_pings',
  version: 1,
  eventTypes: ['Pinged'],
  collections: [{ name: 'pings' }],
  async handle(event, ctx) {
    const doc = (await ctx.get<PingDoc>('pings', event.stream)) ?? { id: event.stream, count: 0, last: 0 };
    ctx.upsert('pings', { ...doc, count: doc.count + 1, last: (event.data as { n: number }).n });
  },
};

/** Registers the projection only (what the CLI and worker need). */
@Module({ imports: [ProjectionsModule.forFeature([pingProjection])] })
export class PingProjectionModule {}

@Controller('test/pings')
export class PingController {
  constructor(private readonly store: ProjectionStore) {}

  @Get(':stream')
  async get(@Param('stream') stream: string): Promise<PingDoc> {
    const doc = await this.store.collection<PingDoc>('test_pings', 'pings').get(stream);
    if (!doc) throw Errors.notFound('No pings on that stream.');
    return doc;
  }
}

/** The projection plus a read route over it (for the api). */
@Module({ imports: [PingProjectionModule], controllers: [PingController] })
export class PingModule {}
