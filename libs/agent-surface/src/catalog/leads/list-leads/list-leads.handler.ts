import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionStore } from '#projections';
import { type LeadDoc, LEADS_COLLECTION, LEADS_PROJECTION } from '../leads.projection.js';
import { type LeadsPage, ListLeadsQuery } from './list-leads.query.js';

/** Reads the leads read model as the server or worker last wrote it (no projection runs in the CLI). */
@QueryHandler(ListLeadsQuery)
export class ListLeadsHandler implements IQueryHandler<ListLeadsQuery, LeadsPage> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute({ status, limit, cursor }: ListLeadsQuery): Promise<LeadsPage> {
    const page = await this.projections
      .collection<LeadDoc>(LEADS_PROJECTION, LEADS_COLLECTION)
      .find(status ? { status } : {}, { sort: [['submitted_at', 1]], limit, ...(cursor ? { after: cursor } : {}) });
    return { leads: page.items, next_cursor: page.nextCursor };
  }
}
