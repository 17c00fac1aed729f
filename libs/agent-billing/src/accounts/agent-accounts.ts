import { Inject, Injectable } from '@nestjs/common';
import { decideAndAppend, type DecideAndAppendResult, EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { type AgentAccountCommand, agentAccountDecider, type AgentAccountState } from './agent-account.decider.js';
import { type AgentAccountEvent, agentAccountStream } from './agent-account.events.js';

export type OpenAgentAccount = Extract<AgentAccountState, { status: 'open' }>;

/** The agent-account aggregate's repository: fold, decide, append with the expected revision. */
@Injectable()
export class AgentAccounts {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async load(accountId: string): Promise<AgentAccountState> {
    return (await loadState(this.events, agentAccountStream(accountId), agentAccountDecider)).state;
  }

  async decide(
    accountId: string,
    command: AgentAccountCommand,
  ): Promise<DecideAndAppendResult<AgentAccountEvent, AgentAccountState>> {
    return decideAndAppend(this.events, agentAccountStream(accountId), agentAccountDecider, command);
  }
}
