import { describe, it } from 'node:test';
import { AppError } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { type AgentCommand, agentDecider } from './agent.decider.js';
import type { AgentEvent } from './agent.events.js';

const spec = deciderSpec(agentDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-01T11:00:00.000Z');
const code = (c: string) => (e: unknown) => e instanceof AppError && e.code === c;

const create = (over: Partial<Extract<AgentCommand, { type: 'CreateAgent' }>> = {}): AgentCommand => ({
  type: 'CreateAgent',
  agentId: 'agt_1',
  accountId: 'acct_1',
  name: 'Reviewer',
  template: 'code-review',
  config: { strict: true },
  by: 'key_1',
  now,
  ...over,
});
const created: AgentEvent = {
  type: 'AgentCreated',
  data: {
    agent_id: 'agt_1',
    account_id: 'acct_1',
    name: 'Reviewer',
    template: 'code-review',
    config: { strict: true },
    created_by: 'key_1',
    created_at: now.toISOString(),
  },
};
const update = (over: Partial<Extract<AgentCommand, { type: 'UpdateAgent' }>> = {}): AgentCommand => ({
  type: 'UpdateAgent',
  agentId: 'agt_1',
  accountId: 'acct_1',
  by: 'key_2',
  now: later,
  ...over,
});

describe('agent decider', () => {
  it('creates an agent from a documented template', () => spec.given([]).when(create()).then([created]));

  it('refuses an unknown template, a blank name, an oversized config, and a second creation', () => {
    spec
      .given([])
      .when(create({ template: 'mind-reader' }))
      .thenThrows(code('VALIDATION_FAILED'));
    spec
      .given([])
      .when(create({ name: '   ' }))
      .thenThrows(code('VALIDATION_FAILED'));
    spec
      .given([])
      .when(create({ config: { blob: 'x'.repeat(17 * 1024) } }))
      .thenThrows(code('VALIDATION_FAILED'));
    spec.given([created]).when(create()).thenThrows(code('AGENT_EXISTS'));
  });

  it('updates the name and replaces the config', () => {
    spec
      .given([created])
      .when(update({ name: 'Strict reviewer', config: { strict: false } }))
      .then([
        {
          type: 'AgentUpdated',
          data: {
            agent_id: 'agt_1',
            account_id: 'acct_1',
            name: 'Strict reviewer',
            config: { strict: false },
            updated_by: 'key_2',
            updated_at: later.toISOString(),
          },
        },
      ]);
    spec
      .given([created])
      .when(update({ config: {} }))
      .then([
        {
          type: 'AgentUpdated',
          data: {
            agent_id: 'agt_1',
            account_id: 'acct_1',
            name: 'Reviewer',
            config: {},
            updated_by: 'key_2',
            updated_at: later.toISOString(),
          },
        },
      ]);
  });

  it('records nothing for an update that changes nothing', () =>
    spec
      .given([created])
      .when(update({ name: 'Reviewer', config: { strict: true } }))
      .then([]));

  it("refuses to update an unknown agent or another account's (404)", () => {
    spec
      .given([])
      .when(update({ name: 'x' }))
      .thenThrows(code('AGENT_NOT_FOUND'));
    spec
      .given([created])
      .when(update({ name: 'x', accountId: 'acct_2' }))
      .thenThrows(code('AGENT_NOT_FOUND'));
  });
});
