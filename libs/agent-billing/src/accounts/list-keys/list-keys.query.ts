import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';

export interface AgentKeyView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  /** True for the key that made this request. */
  current: boolean;
}

/** The account's keys, newest first, revoked ones included (D6 pages). */
export class ListAgentKeysQuery extends Query<ListPage<AgentKeyView>> {
  constructor(
    readonly accountId: string,
    readonly currentKeyId: string,
    readonly limit: number,
    readonly cursor: string | undefined,
  ) {
    super();
  }
}
