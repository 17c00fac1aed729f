import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { type RepositoryCommand, repositoryDecider } from './repository.decider.js';
import { type RepositoryEvent, repositoryStream } from './repository.events.js';

const spec = deciderSpec(repositoryDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-02T10:00:00.000Z');

const connect = (id = 'repo_1', name = 'acme/web'): RepositoryCommand => ({
  type: 'ConnectRepository',
  repositoryId: id,
  accountId: 'acct_1',
  name,
  provider: 'github',
  url: `https://github.com/${name}`,
  by: 'key_1',
  now,
});
const connected = (id = 'repo_1', name = 'acme/web'): RepositoryEvent => ({
  type: 'RepositoryConnected',
  data: {
    repository_id: id,
    account_id: 'acct_1',
    name,
    provider: 'github',
    url: `https://github.com/${name}`,
    connected_by: 'key_1',
    connected_at: now.toISOString(),
  },
});
const disconnected = (id = 'repo_1'): RepositoryEvent => ({
  type: 'RepositoryDisconnected',
  data: {
    repository_id: id,
    account_id: 'acct_1',
    name: 'acme/web',
    disconnected_by: 'key_1',
    disconnected_at: later.toISOString(),
  },
});
const analysis = {
  id: 'ana_1',
  summary: 'fine',
  commit_sha: 'abc1234',
  languages: ['TypeScript'],
  metrics: { files: 12 },
};
const code = (c: string) => (e: unknown) => e instanceof AppError && e.code === c;

describe('repository decider', () => {
  it('connects a new name', () => spec.given([]).when(connect()).then([connected()]));

  it('refuses a second connection of a connected name (409 REPOSITORY_EXISTS with its id)', () => {
    spec
      .given([connected()])
      .when(connect('repo_2'))
      .thenThrows((e) => code('REPOSITORY_EXISTS')(e) && e.kind === 'conflict' && e.extra.repository_id === 'repo_1');
  });

  it('connects a name again after its disconnection, with the new id', () =>
    spec
      .given([connected(), disconnected()])
      .when(connect('repo_2'))
      .then([connected('repo_2')]));

  it('one stream per account and case-insensitive name', () => {
    assert.equal(repositoryStream('acct_1', 'Acme/Web'), repositoryStream('acct_1', 'acme/web'));
    assert.notEqual(repositoryStream('acct_1', 'acme/web'), repositoryStream('acct_2', 'acme/web'));
  });

  it('refuses names that are not owner/repo', () => {
    for (const name of ['acme', 'acme/', '/web', 'a/b/c', 'acme/..', 'ac me/web']) {
      spec.given([]).when(connect('repo_1', name)).thenThrows(code('VALIDATION_FAILED'));
    }
  });

  it('disconnects the connected repository', () =>
    spec
      .given([connected()])
      .when({ type: 'DisconnectRepository', repositoryId: 'repo_1', accountId: 'acct_1', by: 'key_1', now: later })
      .then([disconnected()]));

  it('refuses to disconnect twice, another id, or another account (404)', () => {
    const cmd = (id: string, account = 'acct_1'): RepositoryCommand => ({
      type: 'DisconnectRepository',
      repositoryId: id,
      accountId: account,
      by: null,
      now: later,
    });
    spec.given([connected(), disconnected()]).when(cmd('repo_1')).thenThrows(code('REPOSITORY_NOT_FOUND'));
    spec.given([connected()]).when(cmd('repo_9')).thenThrows(code('REPOSITORY_NOT_FOUND'));
    spec.given([connected()]).when(cmd('repo_1', 'acct_2')).thenThrows(code('REPOSITORY_NOT_FOUND'));
    spec.given([]).when(cmd('repo_1')).thenThrows(code('REPOSITORY_NOT_FOUND'));
  });

  it('records an analysis of the connected repository', () => {
    spec
      .given([connected()])
      .when({ type: 'ReportAnalysis', repositoryId: 'repo_1', accountId: 'acct_1', analysis, by: 'key_2', now: later })
      .then([
        {
          type: 'RepositoryAnalyzed',
          data: {
            repository_id: 'repo_1',
            account_id: 'acct_1',
            name: 'acme/web',
            analysis,
            analyzed_by: 'key_2',
            analyzed_at: later.toISOString(),
          },
        },
      ]);
  });

  it('refuses an analysis of a disconnected repository (409) or an unknown one (404)', () => {
    const cmd = (id: string): RepositoryCommand => ({
      type: 'ReportAnalysis',
      repositoryId: id,
      accountId: 'acct_1',
      analysis,
      by: null,
      now: later,
    });
    spec.given([connected(), disconnected()]).when(cmd('repo_1')).thenThrows(code('REPOSITORY_DISCONNECTED'));
    spec
      .given([connected(), disconnected(), connected('repo_2')])
      .when(cmd('repo_1'))
      .thenThrows(code('REPOSITORY_DISCONNECTED'));
    spec.given([connected()]).when(cmd('repo_9')).thenThrows(code('REPOSITORY_NOT_FOUND'));
  });
});
