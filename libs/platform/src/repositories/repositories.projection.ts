import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import type { OpenCounts, SecurityEvent } from '../security/security.events.js';
import {
  type RepositoryEvent,
  type RepositoryProvider,
  REPOSITORY_EVENT_TYPES,
  repositoryNameKey,
} from './repository.events.js';

export interface RepositoryDoc {
  [key: string]: unknown;
  id: string;
  account_id: string;
  name: string;
  /** Lower-case name: names compare case-insensitively. */
  name_key: string;
  provider: RepositoryProvider;
  url: string | null;
  status: 'connected' | 'disconnected';
  connected_at: string;
  connected_by: string | null;
  disconnected_at: string | null;
  last_analysis: { id: string; summary: string; commit_sha: string | null; analyzed_at: string } | null;
  security: { open: OpenCounts; last_scan_id: string; last_scanned_at: string } | null;
}

export interface AnalysisDoc {
  [key: string]: unknown;
  id: string;
  account_id: string;
  repository_id: string;
  summary: string;
  commit_sha: string | null;
  languages: string[];
  metrics: Record<string, number>;
  analyzed_by: string | null;
  analyzed_at: string;
}

export const REPOSITORIES_PROJECTION = 'repositories';
export const REPOSITORIES_COLLECTION = 'repositories';
export const REPOSITORY_ANALYSES_COLLECTION = 'repository_analyses';

/**
 * Repositories (one document per connection, kept after disconnection with its status), their
 * analyses, and each repository's open-vulnerability counts from its last scan.
 */
export const repositoriesProjection: ProjectionDefinition = {
  name: REPOSITORIES_PROJECTION,
  version: 1,
  eventTypes: [...REPOSITORY_EVENT_TYPES, 'SecurityScanCompleted'],
  collections: [
    {
      name: REPOSITORIES_COLLECTION,
      indexes: [
        {
          fields: [
            ['account_id', 1],
            ['connected_at', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['status', 1],
            ['connected_at', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['name_key', 1],
          ],
        },
      ],
    },
    {
      name: REPOSITORY_ANALYSES_COLLECTION,
      indexes: [
        {
          fields: [
            ['repository_id', 1],
            ['analyzed_at', -1],
          ],
        },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as RepositoryEvent | Extract<SecurityEvent, { type: 'SecurityScanCompleted' }>;
    switch (event.type) {
      case 'RepositoryConnected': {
        const d = event.data;
        const doc: RepositoryDoc = {
          id: d.repository_id,
          account_id: d.account_id,
          name: d.name,
          name_key: repositoryNameKey(d.name),
          provider: d.provider,
          url: d.url,
          status: 'connected',
          connected_at: d.connected_at,
          connected_by: d.connected_by,
          disconnected_at: null,
          last_analysis: null,
          security: null,
        };
        ctx.upsert(REPOSITORIES_COLLECTION, doc);
        return;
      }
      case 'RepositoryDisconnected': {
        const doc = await ctx.get<RepositoryDoc>(REPOSITORIES_COLLECTION, event.data.repository_id);
        if (doc)
          ctx.upsert(REPOSITORIES_COLLECTION, {
            ...doc,
            status: 'disconnected',
            disconnected_at: event.data.disconnected_at,
          });
        return;
      }
      case 'RepositoryAnalyzed': {
        const d = event.data;
        const a = d.analysis;
        const analysis: AnalysisDoc = {
          id: a.id,
          account_id: d.account_id,
          repository_id: d.repository_id,
          summary: a.summary,
          commit_sha: a.commit_sha,
          languages: a.languages,
          metrics: a.metrics,
          analyzed_by: d.analyzed_by,
          analyzed_at: d.analyzed_at,
        };
        ctx.upsert(REPOSITORY_ANALYSES_COLLECTION, analysis);
        const doc = await ctx.get<RepositoryDoc>(REPOSITORIES_COLLECTION, d.repository_id);
        if (doc) {
          ctx.upsert(REPOSITORIES_COLLECTION, {
            ...doc,
            last_analysis: { id: a.id, summary: a.summary, commit_sha: a.commit_sha, analyzed_at: d.analyzed_at },
          });
        }
        return;
      }
      case 'SecurityScanCompleted': {
        const d = event.data;
        const doc = await ctx.get<RepositoryDoc>(REPOSITORIES_COLLECTION, d.repository.id);
        if (doc)
          ctx.upsert(REPOSITORIES_COLLECTION, {
            ...doc,
            security: { open: { ...d.open }, last_scan_id: d.scan_id, last_scanned_at: d.completed_at },
          });
        return;
      }
    }
  },
};
