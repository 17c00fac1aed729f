import { Query } from '@nestjs/cqrs';

/** An account's workspace as /agents/status and the checkout success page show it (ADR 0078). */
export interface AccountWorkspaceView {
  tenant_id: string;
  name: string | null;
  /** enterprise (for good), pilot (running), pilot_ended (read-only until the enterprise pack). */
  plan: 'enterprise' | 'pilot' | 'pilot_ended';
  access: 'read_write' | 'read_only';
  pilot: { days: number; started_at: string; ends_at: string; ended_at: string | null } | null;
  enterprise_since: string | null;
  /** GET it with any key of the account. */
  companies_url: string;
  /** What the agent can do now, in words. */
  note: string;
}

/** The workspace of an agent account, or null when it holds none. */
export class GetAccountWorkspaceQuery extends Query<AccountWorkspaceView | null> {
  constructor(
    readonly accountId: string,
    /** Public base URL, no trailing slash. */
    readonly baseUrl: string,
  ) {
    super();
  }
}
