import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '#access';
import { CLOCK, type Clock, Errors } from '#kernel';
import { ProjectionStore } from '#projections';
import { CreditsService } from '../credits.service.js';
import { GrantCreditsCommand, type GrantCreditsResult } from './grant-credits.command.js';

const usd = (cents: number) => cents / 100;

/** Finds the account of an active agent key, then lets the ledger decide the grant. */
@CommandHandler(GrantCreditsCommand)
export class GrantCreditsHandler implements ICommandHandler<GrantCreditsCommand, GrantCreditsResult> {
  constructor(
    private readonly credits: CreditsService,
    private readonly projections: ProjectionStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input }: GrantCreditsCommand): Promise<GrantCreditsResult> {
    const key = await this.projections.collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION).get(input.keyId);
    // Credits belong to agent accounts: a platform key or a revoked one names no account to fund.
    if (key === null || key.surface !== 'agent' || key.revoked_at !== null)
      throw Errors.notFound('No active agent key with that id.', 'KEY_NOT_FOUND');
    const { events, state } = await this.credits.execute(key.account_id, {
      type: 'GrantCredits',
      accountId: key.account_id,
      creditsCents: input.creditsCents,
      reference: input.reference,
      keyId: key.id,
      grantedBy: 'operator',
      now: this.clock.now(),
    });
    const granted = events.find((e) => e.type === 'CreditsGranted');
    return {
      account_id: key.account_id,
      key_id: key.id,
      granted_usd: granted ? usd(granted.data.credits_cents) : 0,
      reference: input.reference,
      balance_usd: usd(state.balanceCents),
      granted: granted !== undefined,
    };
  }
}
