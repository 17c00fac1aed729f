/** Where a repository is hosted (D8 `provider`); `other` for anything else. */
export const REPOSITORY_PROVIDERS = ['github', 'gitlab', 'bitbucket', 'other'] as const;
export type RepositoryProvider = (typeof REPOSITORY_PROVIDERS)[number];

/** A repository as other events carry it (the spec's envelope field `repository`). */
export interface RepositoryRef {
  id: string;
  /** `owner/repo`, as connected. */
  name: string;
}

export interface AnalysisData {
  /** `ana_…` */
  id: string;
  summary: string;
  commit_sha: string | null;
  languages: string[];
  /** Named numbers (lines_of_code, files, coverage_percent, ...). */
  metrics: Record<string, number>;
}

/**
 * Stored event types of `repository-{account_id}:{name key}` streams: one stream per account and
 * repository name (case-insensitive), holding every connection of that name in turn, so the
 * "one connected repository per name and account" rule is decided inside one stream. Names are
 * stable: never rename.
 */
export type RepositoryEvent =
  | {
      type: 'RepositoryConnected';
      data: {
        repository_id: string;
        account_id: string;
        name: string;
        provider: RepositoryProvider;
        url: string | null;
        connected_by: string | null;
        connected_at: string;
      };
    }
  | {
      type: 'RepositoryDisconnected';
      data: {
        repository_id: string;
        account_id: string;
        name: string;
        disconnected_by: string | null;
        disconnected_at: string;
      };
    }
  | {
      type: 'RepositoryAnalyzed';
      data: {
        repository_id: string;
        account_id: string;
        name: string;
        analysis: AnalysisData;
        analyzed_by: string | null;
        analyzed_at: string;
      };
    };

export const REPOSITORY_EVENT_TYPES: RepositoryEvent['type'][] = [
  'RepositoryConnected',
  'RepositoryDisconnected',
  'RepositoryAnalyzed',
];

/** Names compare case-insensitively (as on GitHub and GitLab). */
export const repositoryNameKey = (name: string) => name.toLowerCase();

export const repositoryStream = (accountId: string, name: string) =>
  `repository-${accountId}:${repositoryNameKey(name)}`;

/** `owner/repo`: an owner (letters, digits, `-`, `_`, `.`; up to 100) and a repository name (same, up to 100). */
export const REPOSITORY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;

/** The address a provider gives a repository, when the caller does not say. */
export function defaultRepositoryUrl(provider: RepositoryProvider, name: string): string | null {
  switch (provider) {
    case 'github':
      return `https://github.com/${name}`;
    case 'gitlab':
      return `https://gitlab.com/${name}`;
    case 'bitbucket':
      return `https://bitbucket.org/${name}`;
    case 'other':
      return null;
  }
}
