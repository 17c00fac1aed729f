import { assertNever, type Decider, Errors } from '#kernel';
import {
  type AnalysisData,
  REPOSITORY_NAME_PATTERN,
  type RepositoryEvent,
  type RepositoryProvider,
} from './repository.events.js';

export type RepositoryCommand =
  | {
      type: 'ConnectRepository';
      repositoryId: string;
      accountId: string;
      name: string;
      provider: RepositoryProvider;
      url: string | null;
      /** Credential that asks (`key_…`), null for the operator. */
      by: string | null;
      now: Date;
    }
  | { type: 'DisconnectRepository'; repositoryId: string; accountId: string; by: string | null; now: Date }
  | {
      type: 'ReportAnalysis';
      repositoryId: string;
      accountId: string;
      analysis: AnalysisData;
      by: string | null;
      now: Date;
    };

export interface ConnectedRepository {
  id: string;
  accountId: string;
  name: string;
}

/** One account's repository name: the connection now in place, and the ids of earlier ones. */
export interface RepositoryState {
  current: ConnectedRepository | null;
  disconnected: string[];
}

export const repositoryNotFound = () => Errors.notFound('No such repository.', 'REPOSITORY_NOT_FOUND');
export const repositoryDisconnected = (id: string) =>
  Errors.conflict('The repository is disconnected; connect it again (it gets a new id).', 'REPOSITORY_DISCONNECTED', {
    repository_id: id,
  });

export const repositoryDecider: Decider<RepositoryCommand, RepositoryEvent, RepositoryState> = {
  initialState: { current: null, disconnected: [] },

  evolve(state, event) {
    switch (event.type) {
      case 'RepositoryConnected':
        return {
          ...state,
          current: { id: event.data.repository_id, accountId: event.data.account_id, name: event.data.name },
        };
      case 'RepositoryDisconnected':
        return { current: null, disconnected: [...state.disconnected, event.data.repository_id] };
      case 'RepositoryAnalyzed':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ConnectRepository': {
        if (!REPOSITORY_NAME_PATTERN.test(command.name))
          throw Errors.validation([{ path: 'body.name', message: 'must be in owner/repo form' }]);
        if (state.current) {
          throw Errors.conflict(`A repository named ${state.current.name} is connected already.`, 'REPOSITORY_EXISTS', {
            repository_id: state.current.id,
          });
        }
        return [
          {
            type: 'RepositoryConnected',
            data: {
              repository_id: command.repositoryId,
              account_id: command.accountId,
              name: command.name,
              provider: command.provider,
              url: command.url,
              connected_by: command.by,
              connected_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'DisconnectRepository': {
        // Disconnected already or never known: the resource is gone (as DELETE of a revoked key).
        const current = state.current;
        if (!current || current.id !== command.repositoryId || current.accountId !== command.accountId)
          throw repositoryNotFound();
        return [
          {
            type: 'RepositoryDisconnected',
            data: {
              repository_id: current.id,
              account_id: current.accountId,
              name: current.name,
              disconnected_by: command.by,
              disconnected_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'ReportAnalysis': {
        const current = state.current;
        if (!current || current.id !== command.repositoryId || current.accountId !== command.accountId) {
          if (state.disconnected.includes(command.repositoryId)) throw repositoryDisconnected(command.repositoryId);
          throw repositoryNotFound();
        }
        return [
          {
            type: 'RepositoryAnalyzed',
            data: {
              repository_id: current.id,
              account_id: current.accountId,
              name: current.name,
              analysis: command.analysis,
              analyzed_by: command.by,
              analyzed_at: command.now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
