import { Injectable } from '@nestjs/common';
import { ProjectionStore } from '#projections';
import { getOwned } from '../shared/find-page.js';
import { repositoryDisconnected, repositoryNotFound } from './repository.decider.js';
import { REPOSITORIES_COLLECTION, REPOSITORIES_PROJECTION, type RepositoryDoc } from './repositories.projection.js';

/**
 * Finds a repository of the caller's account in the read model. Commands that act on a
 * repository route through it (its document names the stream); commands of other aggregates
 * (runs, scans, approvals) use it to check a reference: a disconnection that races with them may
 * let one through, which is harmless (the run or scan is about a repository that was connected).
 */
@Injectable()
export class RepositoryLookup {
  constructor(private readonly projections: ProjectionStore) {}

  private collection() {
    return this.projections.collection<RepositoryDoc>(REPOSITORIES_PROJECTION, REPOSITORIES_COLLECTION);
  }

  /** Connected or not; 404 when unknown or another account's. */
  get(accountId: string, repositoryId: string): Promise<RepositoryDoc> {
    return getOwned(this.collection(), repositoryId, accountId, repositoryNotFound);
  }

  /** 404 when unknown, 409 REPOSITORY_DISCONNECTED when disconnected. */
  async connected(accountId: string, repositoryId: string): Promise<RepositoryDoc> {
    const doc = await this.get(accountId, repositoryId);
    if (doc.status !== 'connected') throw repositoryDisconnected(doc.id);
    return doc;
  }

  /** Ids of every connection of a name in the account (newest first), connected or not. */
  async idsByName(accountId: string, name: string): Promise<string[]> {
    const found = await this.collection().find(
      { account_id: accountId, name_key: name.toLowerCase() },
      { limit: 1000 },
    );
    return found.items.map((d) => d.id);
  }
}
