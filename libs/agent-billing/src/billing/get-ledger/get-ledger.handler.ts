import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { creditsBalanceDelta } from '../../credits/credits.decider.js';
import { CreditsService } from '../../credits/credits.service.js';
import { ledgerEntryView } from '../../credits/ledger-entry.view.js';
import { GetLedgerQuery } from './get-ledger.query.js';
import type { LedgerPage } from './get-ledger.schema.js';
import { LedgerCursors } from './ledger-cursor.js';

const usd = (cents: number) => cents / 100;

/**
 * Reads the account's stream after the cursor's revision (one more entry than asked, to know
 * whether more follow) and carries the balance on from the cursor's: a page costs its own size,
 * however long the history before it.
 */
@QueryHandler(GetLedgerQuery)
export class GetLedgerHandler implements IQueryHandler<GetLedgerQuery, LedgerPage> {
  constructor(
    private readonly credits: CreditsService,
    private readonly cursors: LedgerCursors,
  ) {}

  async execute({ agent, after, limit }: GetLedgerQuery): Promise<LedgerPage> {
    const start = this.cursors.decode(agent.accountId, after);
    const entries = await this.credits.entriesFrom(agent.accountId, start.revision + 1, limit + 1);
    const page = entries.slice(0, limit);
    let position = start;
    const data = page.map((entry) => {
      position = { revision: entry.revision, balanceCents: position.balanceCents + creditsBalanceDelta(entry.event) };
      const view = ledgerEntryView(entry);
      return {
        id: entry.id,
        ...view,
        meter: (view.meter as string | undefined) ?? null,
        request_id: (view.request_id as string | undefined) ?? null,
        balance_after_usd: usd(position.balanceCents),
      } as LedgerPage['data'][number];
    });
    return {
      data,
      next_cursor: this.cursors.encode(agent.accountId, position),
      has_more: entries.length > limit,
    };
  }
}
