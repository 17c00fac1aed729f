/**
 * GET /api/v1/agents/status answers the public status (this feature) and, when the request
 * carries a key, the account part (the accounts and credits feature). The two meet here: the
 * accounts feature provides AGENT_ACCOUNT_STATUS (in any module; it is looked up app-wide) and
 * the status route merges what it returns into `data`.
 */
export interface AgentStatusRequest {
  headers: Record<string, string | string[] | undefined>;
  id?: string;
}

export interface AgentAccountStatusProvider {
  /**
   * Called only when the request has an `x-api-key` or `Authorization` header. Throws the
   * usual 401 AppError for a key that does not work; otherwise returns the fields to merge into
   * the status document (e.g. `{authenticated: true, account, balance_usd, recent_ledger,
   * autopay}`): they win over the public fields of the same name.
   */
  accountStatus(request: AgentStatusRequest): Promise<Record<string, unknown>>;
}

export const AGENT_ACCOUNT_STATUS = Symbol.for('svc.agent-data.account-status');

/** True when the request carries a credential header (the keyed form of /agents/status). */
export function hasAgentCredential(headers: AgentStatusRequest['headers']): boolean {
  return headers['x-api-key'] !== undefined || headers.authorization !== undefined;
}
