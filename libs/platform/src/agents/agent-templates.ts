/**
 * The templates an agent is made from (D9). The template says what the agent does; `config`
 * tunes it (free-form JSON read by the runner). The list is fixed and documented here, in the
 * OpenAPI document and at `GET /v1/agent-templates`.
 */
export const AGENT_TEMPLATES = [
  { id: 'code-review', name: 'Code review', description: 'Reviews pull requests and reports problems line by line.' },
  {
    id: 'security-audit',
    name: 'Security audit',
    description: 'Looks for vulnerabilities, leaked secrets and insecure patterns.',
  },
  { id: 'test-generation', name: 'Test generation', description: 'Finds untested code and proposes tests for it.' },
  { id: 'dependency-update', name: 'Dependency update', description: 'Checks dependencies and proposes upgrades.' },
  { id: 'documentation', name: 'Documentation', description: 'Finds stale or missing documentation.' },
  { id: 'bug-fix', name: 'Bug fix', description: 'Investigates failing builds and reported bugs and proposes fixes.' },
  { id: 'custom', name: 'Custom', description: 'Your own instructions, in `config`.' },
] as const;

export type AgentTemplate = (typeof AGENT_TEMPLATES)[number]['id'];
export const AGENT_TEMPLATE_IDS = AGENT_TEMPLATES.map((t) => t.id) as [AgentTemplate, ...AgentTemplate[]];

export function isAgentTemplate(value: string): value is AgentTemplate {
  return (AGENT_TEMPLATE_IDS as string[]).includes(value);
}

/** Largest `config` accepted, as JSON. */
export const MAX_AGENT_CONFIG_BYTES = 16 * 1024;
