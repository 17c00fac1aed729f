import { Query } from '@nestjs/cqrs';
import type { z } from 'zod';
import type { accountWorkspaceSchema } from './workspace-views.schema.js';

/** An account's workspace as /agents/status and the checkout success page show it (ADR 0078). */
export type AccountWorkspaceView = z.infer<typeof accountWorkspaceSchema>;

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
