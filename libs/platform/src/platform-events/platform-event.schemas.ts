import { z } from 'zod';
import { AGENT_TEMPLATE_IDS } from '../agents/agent-templates.js';
import { REPOSITORY_PROVIDERS } from '../repositories/repository.events.js';
import { FINDING_LEVELS } from '../runs/run.events.js';
import { SEVERITIES } from '../security/security.events.js';
import { PLATFORM_EVENT_TYPES, type PlatformEventType } from './platform-event.js';

/**
 * The `data` of each platform event type, as published (webhooks and `GET /v1/events`). Strict:
 * the tests parse every published event with these, so a field added or renamed in the code but
 * not here fails. agent.completed and security.alert are exactly the spec's tables.
 */
const repositoryRef = z.strictObject({ id: z.string(), name: z.string().describe('`owner/repo`') });
const agentRef = z.strictObject({ id: z.string(), name: z.string(), template: z.enum(AGENT_TEMPLATE_IDS) });
const pullRequest = z
  .strictObject({ number: z.number().int(), title: z.string(), url: z.string() })
  .nullable()
  .describe('null when the run is not about a pull request.');
const results = z.strictObject({ errors: z.number().int(), warnings: z.number().int(), info: z.number().int() });
const vulnerability = z.strictObject({
  id: z.string().describe('Advisory id.'),
  severity: z.enum(SEVERITIES),
  package: z.string(),
  version: z.string(),
  fixed_in: z.string().nullable().describe('First fixed version; null while there is no fix.'),
});
const finding = z.strictObject({
  level: z.enum(FINDING_LEVELS),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  message: z.string(),
  rule: z.string().nullable(),
});
const approval = (status: string) =>
  z.strictObject({
    approval: z.strictObject({
      id: z.string(),
      status: z.literal(status),
      action: z.string(),
      resource: z.strictObject({ type: z.string(), id: z.string() }),
      description: z.string().nullable(),
      run_id: z.string().nullable(),
      requested_by: z.string().nullable(),
      requested_at: z.string(),
      expires_at: z.string(),
      ...(status === 'pending'
        ? {}
        : { decided_by: z.string().nullable(), decided_at: z.string(), comment: z.string().nullable() }),
    }),
  });

export const PLATFORM_EVENT_DATA_SCHEMAS = {
  'agent.started': z
    .strictObject({
      agent: agentRef,
      run: z.strictObject({ id: z.string(), status: z.literal('running'), started_at: z.string() }),
      pull_request: pullRequest,
    })
    .meta({ id: 'AgentStartedData' }),
  'agent.completed': z
    .strictObject({
      agent: agentRef,
      run: z.strictObject({
        id: z.string(),
        status: z.literal('success'),
        duration_ms: z.number().int(),
        issues_found: z.number().int(),
      }),
      pull_request: pullRequest,
      results,
    })
    .meta({ id: 'AgentCompletedData' }),
  'agent.failed': z
    .strictObject({
      agent: agentRef,
      run: z.strictObject({ id: z.string(), status: z.literal('failed'), duration_ms: z.number().int() }),
      pull_request: pullRequest,
      error: z.strictObject({ code: z.string().nullable(), message: z.string() }),
    })
    .meta({ id: 'AgentFailedData' }),
  'agent.issues_found': z
    .strictObject({
      agent: agentRef,
      run: z.strictObject({ id: z.string(), status: z.literal('success'), issues_found: z.number().int() }),
      pull_request: pullRequest,
      results,
      issues: z.array(finding).describe('The first 100 findings; all of them at GET /v1/runs/{id}/findings.'),
      issues_truncated: z.boolean(),
    })
    .meta({ id: 'AgentIssuesFoundData' }),
  'security.alert': z
    .strictObject({ vulnerability, affected_files: z.array(z.string()), recommendation: z.string() })
    .meta({ id: 'SecurityAlertData' }),
  'security.resolved': z
    .strictObject({ vulnerability, affected_files: z.array(z.string()), resolved_at: z.string() })
    .meta({ id: 'SecurityResolvedData' }),
  'security.scan_completed': z
    .strictObject({
      scan: z.strictObject({
        id: z.string(),
        scanner: z.string().nullable(),
        reported: z.number().int(),
        completed_at: z.string(),
      }),
      new_alerts: z.number().int(),
      resolved: z.number().int(),
      open: z.strictObject({
        total: z.number().int(),
        critical: z.number().int(),
        high: z.number().int(),
        moderate: z.number().int(),
        low: z.number().int(),
      }),
    })
    .meta({ id: 'SecurityScanCompletedData' }),
  'approval.requested': approval('pending').meta({ id: 'ApprovalRequestedData' }),
  'approval.approved': approval('approved').meta({ id: 'ApprovalApprovedData' }),
  'approval.rejected': approval('rejected').meta({ id: 'ApprovalRejectedData' }),
  'repository.connected': z
    .strictObject({
      repository: z.strictObject({
        id: z.string(),
        name: z.string(),
        provider: z.enum(REPOSITORY_PROVIDERS),
        url: z.string().nullable(),
      }),
      connected_at: z.string(),
    })
    .meta({ id: 'RepositoryConnectedData' }),
  'repository.disconnected': z
    .strictObject({ repository: repositoryRef, disconnected_at: z.string() })
    .meta({ id: 'RepositoryDisconnectedData' }),
  'repository.analyzed': z
    .strictObject({
      analysis: z.strictObject({
        id: z.string(),
        summary: z.string(),
        commit_sha: z.string().nullable(),
        languages: z.array(z.string()),
        metrics: z.record(z.string(), z.number()),
      }),
      analyzed_at: z.string(),
    })
    .meta({ id: 'RepositoryAnalyzedData' }),
} satisfies Record<PlatformEventType, z.ZodType>;

function envelopeOfType<T extends PlatformEventType>(type: T) {
  return z.strictObject({
    id: z.string().describe('`evt_…`'),
    type: z.literal(type),
    created: z.string().describe('ISO 8601 UTC.'),
    data: PLATFORM_EVENT_DATA_SCHEMAS[type],
    repository: repositoryRef
      .optional()
      .describe('The repository it is about; absent when none (an approval requested without a repository).'),
  });
}

/** The spec's event envelope, one variant per type (OpenAPI: a oneOf discriminated by `type`). */
export const platformEventSchema = z
  .discriminatedUnion(
    'type',
    PLATFORM_EVENT_TYPES.map((t) => envelopeOfType(t)) as unknown as [
      ReturnType<typeof envelopeOfType>,
      ...ReturnType<typeof envelopeOfType>[],
    ],
  )
  .meta({ id: 'PlatformEvent' });
