import { assertNever, type Decider, Errors, type ErrorDetail } from '#kernel';
import { type AgentTemplate, isAgentTemplate, AGENT_TEMPLATE_IDS, MAX_AGENT_CONFIG_BYTES } from './agent-templates.js';
import type { AgentEvent } from './agent.events.js';

export type AgentCommand =
  | {
      type: 'CreateAgent';
      agentId: string;
      accountId: string;
      name: string;
      template: string;
      config: Record<string, unknown>;
      by: string | null;
      now: Date;
    }
  | {
      type: 'UpdateAgent';
      agentId: string;
      accountId: string;
      name?: string;
      config?: Record<string, unknown>;
      by: string | null;
      now: Date;
    };

export type AgentState =
  | { status: 'absent' }
  | {
      status: 'active';
      agentId: string;
      accountId: string;
      name: string;
      template: AgentTemplate;
      config: Record<string, unknown>;
    };

export const agentNotFound = () => Errors.notFound('No such agent.', 'AGENT_NOT_FOUND');

function checkName(name: string, details: ErrorDetail[]): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100)
    details.push({ path: 'body.name', message: 'must be 1 to 100 characters' });
  return trimmed;
}

function checkConfig(config: Record<string, unknown>, details: ErrorDetail[]): void {
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    details.push({ path: 'body.config', message: 'must be an object' });
  else if (Buffer.byteLength(JSON.stringify(config), 'utf8') > MAX_AGENT_CONFIG_BYTES) {
    details.push({ path: 'body.config', message: `must be at most ${MAX_AGENT_CONFIG_BYTES} bytes as JSON` });
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const agentDecider: Decider<AgentCommand, AgentEvent, AgentState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'AgentCreated': {
        const d = event.data;
        return {
          status: 'active',
          agentId: d.agent_id,
          accountId: d.account_id,
          name: d.name,
          template: d.template,
          config: d.config,
        };
      }
      case 'AgentUpdated':
        return state.status === 'active' ? { ...state, name: event.data.name, config: event.data.config } : state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateAgent': {
        if (state.status !== 'absent') throw Errors.conflict('The agent exists already.', 'AGENT_EXISTS');
        const details: ErrorDetail[] = [];
        const name = checkName(command.name, details);
        if (!isAgentTemplate(command.template))
          details.push({ path: 'body.template', message: `unknown template; one of ${AGENT_TEMPLATE_IDS.join(', ')}` });
        checkConfig(command.config, details);
        if (details.length) throw Errors.validation(details);
        return [
          {
            type: 'AgentCreated',
            data: {
              agent_id: command.agentId,
              account_id: command.accountId,
              name,
              template: command.template as AgentTemplate,
              config: command.config,
              created_by: command.by,
              created_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'UpdateAgent': {
        if (state.status !== 'active' || state.accountId !== command.accountId) throw agentNotFound();
        const details: ErrorDetail[] = [];
        const name = command.name === undefined ? state.name : checkName(command.name, details);
        const config = command.config ?? state.config;
        if (command.config !== undefined) checkConfig(command.config, details);
        if (details.length) throw Errors.validation(details);
        // Nothing changes: nothing to record (the answer is the agent as it is).
        if (name === state.name && sameJson(config, state.config)) return [];
        return [
          {
            type: 'AgentUpdated',
            data: {
              agent_id: state.agentId,
              account_id: state.accountId,
              name,
              config,
              updated_by: command.by,
              updated_at: command.now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
