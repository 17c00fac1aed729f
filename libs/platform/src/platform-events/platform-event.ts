import { assertNever } from '#kernel';
import type { RecordedEvent } from '#eventstore';
import type { ApprovalEvent, ApprovalRequestData } from '../approvals/approval.events.js';
import type { RepositoryEvent, RepositoryRef } from '../repositories/repository.events.js';
import type { RunEvent, RunEventBase } from '../runs/run.events.js';
import type { SecurityEvent } from '../security/security.events.js';
import { derivedId } from './derived-id.js';

/** The platform's event types (spec "Events", exact names). */
export const PLATFORM_EVENT_TYPES = [
  'agent.started',
  'agent.completed',
  'agent.failed',
  'agent.issues_found',
  'security.alert',
  'security.resolved',
  'security.scan_completed',
  'approval.requested',
  'approval.approved',
  'approval.rejected',
  'repository.connected',
  'repository.disconnected',
  'repository.analyzed',
] as const;
export type PlatformEventType = (typeof PLATFORM_EVENT_TYPES)[number];

/** What each event type means (the spec's "Meaning" column), shown beside its checkbox. */
export const PLATFORM_EVENT_MEANINGS = {
  'agent.started': 'An agent run started.',
  'agent.completed': 'An agent run completed successfully.',
  'agent.failed': 'An agent run failed.',
  'agent.issues_found': 'An agent run found issues.',
  'security.alert': 'A new security vulnerability was found.',
  'security.resolved': 'A security vulnerability was resolved.',
  'security.scan_completed': 'A security scan finished.',
  'approval.requested': 'An action needs an approval.',
  'approval.approved': 'An action was approved.',
  'approval.rejected': 'An action was rejected.',
  'repository.connected': 'A new repository was connected.',
  'repository.disconnected': 'A repository was disconnected.',
  'repository.analyzed': 'A repository analysis completed.',
} as const satisfies Record<PlatformEventType, string>;

export function isPlatformEventType(value: string): value is PlatformEventType {
  return (PLATFORM_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * The spec's event envelope, exactly what a webhook receiver and `GET /v1/events` get. (A type,
 * not an interface, so it is assignable to index-signature types such as the webhook engine's.)
 */
export type PlatformEventEnvelope = {
  /** `evt_…`, derived from the source event (see platformEventId). */
  id: string;
  type: PlatformEventType;
  /** ISO 8601 UTC: when the change happened (the source event's time, from the injected clock). */
  created: string;
  data: Record<string, unknown>;
  /** Omitted only for events about no repository (an approval requested without one). */
  repository?: RepositoryRef;
};

/** A platform event with the account it belongs to (only that account's webhooks and keys see it). */
export interface PlatformEvent {
  account_id: string;
  envelope: PlatformEventEnvelope;
}

/**
 * Each of these stored domain events publishes exactly one platform event (the others publish
 * none: RunQueued, RunCancelled, VulnerabilityUpdated, ApprovalExpired, agent events).
 */
export const PLATFORM_EVENT_SOURCES = {
  RepositoryConnected: 'repository.connected',
  RepositoryDisconnected: 'repository.disconnected',
  RepositoryAnalyzed: 'repository.analyzed',
  RunClaimed: 'agent.started',
  RunSucceeded: 'agent.completed',
  RunFailed: 'agent.failed',
  RunIssuesFound: 'agent.issues_found',
  VulnerabilityDetected: 'security.alert',
  VulnerabilityResolved: 'security.resolved',
  SecurityScanCompleted: 'security.scan_completed',
  ApprovalRequested: 'approval.requested',
  ApprovalApproved: 'approval.approved',
  ApprovalRejected: 'approval.rejected',
} as const satisfies Record<string, PlatformEventType>;

export type PlatformEventSourceType = keyof typeof PLATFORM_EVENT_SOURCES;
export const PLATFORM_EVENT_SOURCE_TYPES = Object.keys(PLATFORM_EVENT_SOURCES) as PlatformEventSourceType[];

/**
 * `evt_` + a ULID whose time is `created` and whose other part is a hash of the source event's
 * id and the platform type: the same on every replay, so a projection rebuild (or a second
 * consumer) reproduces identical ids and a webhook engine keyed by them never resends history.
 */
export function platformEventId(sourceEventId: string, type: PlatformEventType, created: string): string {
  return derivedId('evt', created, 'platform-event', sourceEventId, type);
}

type Source = RepositoryEvent | RunEvent | SecurityEvent | ApprovalEvent;

function agentRunData(d: RunEventBase) {
  return {
    agent: { id: d.agent.id, name: d.agent.name, template: d.agent.template },
    pull_request: d.pull_request ? { ...d.pull_request } : null,
  };
}

function approvalData(
  d: ApprovalRequestData,
  status: string,
  decision?: { decided_by: string | null; decided_at: string; comment: string | null },
) {
  return {
    approval: {
      id: d.approval_id,
      status,
      action: d.action,
      resource: { type: d.resource.type, id: d.resource.id },
      description: d.description,
      run_id: d.run_id,
      requested_by: d.requested_by,
      requested_at: d.requested_at,
      expires_at: d.expires_at,
      ...(decision
        ? { decided_by: decision.decided_by, decided_at: decision.decided_at, comment: decision.comment }
        : {}),
    },
  };
}

/** The envelope body of a source event (without id), or null for events that publish nothing. */
function describe(event: Source): {
  account_id: string;
  type: PlatformEventType;
  created: string;
  data: Record<string, unknown>;
  repository: RepositoryRef | null;
} | null {
  switch (event.type) {
    case 'RepositoryConnected': {
      const d = event.data;
      const repository = { id: d.repository_id, name: d.name };
      return {
        account_id: d.account_id,
        type: 'repository.connected',
        created: d.connected_at,
        data: { repository: { ...repository, provider: d.provider, url: d.url }, connected_at: d.connected_at },
        repository,
      };
    }
    case 'RepositoryDisconnected': {
      const d = event.data;
      const repository = { id: d.repository_id, name: d.name };
      return {
        account_id: d.account_id,
        type: 'repository.disconnected',
        created: d.disconnected_at,
        data: { repository, disconnected_at: d.disconnected_at },
        repository,
      };
    }
    case 'RepositoryAnalyzed': {
      const d = event.data;
      const a = d.analysis;
      return {
        account_id: d.account_id,
        type: 'repository.analyzed',
        created: d.analyzed_at,
        data: {
          analysis: {
            id: a.id,
            summary: a.summary,
            commit_sha: a.commit_sha,
            languages: [...a.languages],
            metrics: { ...a.metrics },
          },
          analyzed_at: d.analyzed_at,
        },
        repository: { id: d.repository_id, name: d.name },
      };
    }
    case 'RunClaimed': {
      const d = event.data;
      const { agent, pull_request } = agentRunData(d);
      return {
        account_id: d.account_id,
        type: 'agent.started',
        created: d.started_at,
        data: { agent, run: { id: d.run_id, status: 'running', started_at: d.started_at }, pull_request },
        repository: d.repository,
      };
    }
    case 'RunSucceeded': {
      const d = event.data;
      const { agent, pull_request } = agentRunData(d);
      // Exactly the spec's "data of agent.completed".
      return {
        account_id: d.account_id,
        type: 'agent.completed',
        created: d.finished_at,
        data: {
          agent,
          run: { id: d.run_id, status: 'success', duration_ms: d.duration_ms, issues_found: d.issues_found },
          pull_request,
          results: { errors: d.results.errors, warnings: d.results.warnings, info: d.results.info },
        },
        repository: d.repository,
      };
    }
    case 'RunIssuesFound': {
      const d = event.data;
      const { agent, pull_request } = agentRunData(d);
      return {
        account_id: d.account_id,
        type: 'agent.issues_found',
        created: d.found_at,
        data: {
          agent,
          run: { id: d.run_id, status: 'success', issues_found: d.issues_found },
          pull_request,
          results: { errors: d.results.errors, warnings: d.results.warnings, info: d.results.info },
          issues: d.issues.map((f) => ({
            level: f.level,
            file: f.file,
            line: f.line,
            message: f.message,
            rule: f.rule,
          })),
          issues_truncated: d.issues_truncated,
        },
        repository: d.repository,
      };
    }
    case 'RunFailed': {
      const d = event.data;
      const { agent, pull_request } = agentRunData(d);
      return {
        account_id: d.account_id,
        type: 'agent.failed',
        created: d.finished_at,
        data: {
          agent,
          run: { id: d.run_id, status: 'failed', duration_ms: d.duration_ms },
          pull_request,
          error: { code: d.error.code, message: d.error.message },
        },
        repository: d.repository,
      };
    }
    case 'VulnerabilityDetected': {
      const d = event.data;
      const v = d.vulnerability;
      // Exactly the spec's "data of security.alert".
      return {
        account_id: d.account_id,
        type: 'security.alert',
        created: d.detected_at,
        data: {
          vulnerability: {
            id: v.id,
            severity: v.severity,
            package: v.package,
            version: v.version,
            fixed_in: v.fixed_in,
          },
          affected_files: [...d.affected_files],
          recommendation: d.recommendation,
        },
        repository: d.repository,
      };
    }
    case 'VulnerabilityResolved': {
      const d = event.data;
      const v = d.vulnerability;
      return {
        account_id: d.account_id,
        type: 'security.resolved',
        created: d.resolved_at,
        data: {
          vulnerability: {
            id: v.id,
            severity: v.severity,
            package: v.package,
            version: v.version,
            fixed_in: v.fixed_in,
          },
          affected_files: [...d.affected_files],
          resolved_at: d.resolved_at,
        },
        repository: d.repository,
      };
    }
    case 'SecurityScanCompleted': {
      const d = event.data;
      return {
        account_id: d.account_id,
        type: 'security.scan_completed',
        created: d.completed_at,
        data: {
          scan: { id: d.scan_id, scanner: d.scanner, reported: d.reported, completed_at: d.completed_at },
          new_alerts: d.new_alerts,
          resolved: d.resolved,
          open: { ...d.open },
        },
        repository: d.repository,
      };
    }
    case 'ApprovalRequested': {
      const d = event.data;
      return {
        account_id: d.account_id,
        type: 'approval.requested',
        created: d.requested_at,
        data: approvalData(d, 'pending'),
        repository: d.repository,
      };
    }
    case 'ApprovalApproved':
    case 'ApprovalRejected': {
      const d = event.data;
      const approved = event.type === 'ApprovalApproved';
      return {
        account_id: d.account_id,
        type: approved ? 'approval.approved' : 'approval.rejected',
        created: d.decided_at,
        data: approvalData(d, approved ? 'approved' : 'rejected', d),
        repository: d.repository,
      };
    }
    case 'RunQueued':
    case 'RunCancelled':
    case 'VulnerabilityUpdated':
    case 'ApprovalExpired':
      return null;
    default:
      return assertNever(event);
  }
}

/**
 * The platform event a stored domain event publishes, or null. A pure function of the event (its
 * id, type and data): a projection (`platform-events`) and the webhook engine can both call it
 * and get the same envelope, id included, on every replay.
 */
export function toPlatformEvent(event: Pick<RecordedEvent, 'id' | 'type' | 'data'>): PlatformEvent | null {
  if (!(event.type in PLATFORM_EVENT_SOURCES)) return null;
  const described = describe({ type: event.type, data: event.data } as Source);
  if (!described) return null;
  const envelope: PlatformEventEnvelope = {
    id: platformEventId(event.id, described.type, described.created),
    type: described.type,
    created: described.created,
    data: described.data,
    ...(described.repository ? { repository: { id: described.repository.id, name: described.repository.name } } : {}),
  };
  return { account_id: described.account_id, envelope };
}

/**
 * The platform events as a webhook-engine envelope source (`EnvelopeSource` of `#webhooks`:
 * the stored types to follow and a pure envelope per event, owned by the account): the engine's
 * platform channel uses it as its `source`, and its fan-out then derives the same `evt_` ids as
 * the `platform_events` read model on every replay.
 */
export const platformEventSource = {
  storedEventTypes: PLATFORM_EVENT_SOURCE_TYPES as readonly string[],
  toEnvelope(event: RecordedEvent): { ownerId: string; envelope: PlatformEventEnvelope } | null {
    const published = toPlatformEvent(event);
    return published ? { ownerId: published.account_id, envelope: published.envelope } : null;
  },
};
