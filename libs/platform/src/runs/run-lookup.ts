import { Injectable } from '@nestjs/common';
import { ProjectionStore } from '#projections';
import { getOwned } from '../shared/find-page.js';
import { runNotFound } from './run.decider.js';
import { RUNS_COLLECTION, RUNS_PROJECTION, type RunDoc } from './runs.projection.js';

@Injectable()
export class RunLookup {
  constructor(private readonly projections: ProjectionStore) {}

  collection() {
    return this.projections.collection<RunDoc>(RUNS_PROJECTION, RUNS_COLLECTION);
  }

  /** A run of the caller's account; 404 otherwise. */
  get(accountId: string, runId: string): Promise<RunDoc> {
    return getOwned(this.collection(), runId, accountId, runNotFound);
  }
}
