import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import type { AgentTemplate } from './agent-templates.js';
import { AGENT_EVENT_TYPES, type AgentEvent } from './agent.events.js';

export interface AgentDoc {
  [key: string]: unknown;
  id: string;
  account_id: string;
  name: string;
  template: AgentTemplate;
  /** The free-form config as JSON text: stores never parse a client's nesting (SQLite, MongoDB limits). */
  config_json: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Named apart from the agent data surface's (AI) agents. */
export const AGENTS_PROJECTION = 'platform-agents';
export const AGENTS_COLLECTION = 'platform_agents';

export const agentsProjection: ProjectionDefinition = {
  name: AGENTS_PROJECTION,
  version: 2,
  eventTypes: AGENT_EVENT_TYPES,
  collections: [
    {
      name: AGENTS_COLLECTION,
      indexes: [
        {
          fields: [
            ['account_id', 1],
            ['created_at', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['template', 1],
            ['created_at', -1],
          ],
        },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as AgentEvent;
    switch (event.type) {
      case 'AgentCreated': {
        const d = event.data;
        const doc: AgentDoc = {
          id: d.agent_id,
          account_id: d.account_id,
          name: d.name,
          template: d.template,
          config_json: JSON.stringify(d.config),
          created_by: d.created_by,
          created_at: d.created_at,
          updated_at: d.created_at,
        };
        ctx.upsert(AGENTS_COLLECTION, doc);
        return;
      }
      case 'AgentUpdated': {
        const d = event.data;
        const doc = await ctx.get<AgentDoc>(AGENTS_COLLECTION, d.agent_id);
        if (doc)
          ctx.upsert(AGENTS_COLLECTION, {
            ...doc,
            name: d.name,
            config_json: JSON.stringify(d.config),
            updated_at: d.updated_at,
          });
        return;
      }
    }
  },
};
