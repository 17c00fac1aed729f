import type { AgentTemplate } from './agent-templates.js';

/** Stored event types of `agent-{agt_id}` streams. Names are stable: never rename. */
export type AgentEvent =
  | {
      type: 'AgentCreated';
      data: {
        agent_id: string;
        account_id: string;
        name: string;
        template: AgentTemplate;
        config: Record<string, unknown>;
        created_by: string | null;
        created_at: string;
      };
    }
  | {
      type: 'AgentUpdated';
      /** The agent's name and config after the change (both, whichever changed). */
      data: {
        agent_id: string;
        account_id: string;
        name: string;
        config: Record<string, unknown>;
        updated_by: string | null;
        updated_at: string;
      };
    };

export const AGENT_EVENT_TYPES: AgentEvent['type'][] = ['AgentCreated', 'AgentUpdated'];

export const agentStream = (agentId: string) => `agent-${agentId}`;

/** An agent as run events carry it (`data.agent` of agent.completed). */
export interface AgentRef {
  id: string;
  name: string;
  template: AgentTemplate;
}
