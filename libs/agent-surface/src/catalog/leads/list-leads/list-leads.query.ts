import { Query } from '@nestjs/cqrs';
import type { LeadDoc } from '../leads.projection.js';

export interface LeadsPage {
  leads: LeadDoc[];
  next_cursor: string | null;
}

/** `svc leads list [--status received|converted]`: leads oldest first, a page at a time. */
export class ListLeadsQuery extends Query<LeadsPage> {
  constructor(
    readonly status: 'received' | 'converted' | undefined,
    readonly limit: number,
    readonly cursor: string | undefined,
  ) {
    super();
  }
}
