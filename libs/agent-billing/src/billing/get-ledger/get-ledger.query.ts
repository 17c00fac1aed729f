import { Query } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';
import type { LedgerPage } from './get-ledger.schema.js';

/** The key's account's ledger entries after a cursor, oldest first, with the running balance. */
export class GetLedgerQuery extends Query<LedgerPage> {
  constructor(
    readonly agent: AgentPrincipal,
    readonly after: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
