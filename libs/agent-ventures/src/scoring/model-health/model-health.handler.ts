import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionRunner, ProjectionStore } from '#projections';
import { COMPANY_PROFILES_PROJECTION } from '../../companies/company-profiles.projection.js';
import { COMPANY_EVENT_TYPES } from '../../companies/company.events.js';
import { COMPANY_STREAM_PREFIX } from '../../companies/company.profile.js';
import {
  COMPANY_SCORES_PROJECTION,
  SCORE_STATS_COLLECTION,
  SCORE_STATS_ID,
  type ScoreStatsDoc,
} from '../company-scores.projection.js';
import { MODEL_VERSION } from '../scoring-model.js';
import { ModelHealthQuery } from './model-health.query.js';
import type { ModelHealth } from './model-health.schema.js';

const WATCHED = [COMPANY_PROFILES_PROJECTION, COMPANY_SCORES_PROJECTION];
/** Counting pending company events stops here: "at least this many". */
export const MAX_COUNTED_LAG = 1000;

/** The scoring model's state: version, coverage, freshness (lag of the profile and score projections). */
@QueryHandler(ModelHealthQuery)
export class ModelHealthHandler implements IQueryHandler<ModelHealthQuery, ModelHealth> {
  constructor(
    private readonly runner: ProjectionRunner,
    private readonly projections: ProjectionStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute(): Promise<ModelHealth> {
    const [statuses, stats] = await Promise.all([
      this.runner.status(),
      this.projections.collection<ScoreStatsDoc>(COMPANY_SCORES_PROJECTION, SCORE_STATS_COLLECTION).get(SCORE_STATS_ID),
    ]);
    const watched = statuses.filter((s) => WATCHED.includes(s.name));
    const lag = watched.length ? await this.pendingCompanyEvents(Math.min(...watched.map((s) => s.position))) : 0;
    const companies = stats?.companies ?? 0;
    const status: ModelHealth['status'] = watched.some((s) => s.state === 'failed')
      ? 'failed'
      : watched.some((s) => s.rebuilding !== null)
        ? 'rebuilding'
        : lag > 0
          ? 'catching_up'
          : companies === 0
            ? 'empty'
            : 'ok';
    return {
      model_version: MODEL_VERSION,
      status,
      companies_scored: companies,
      last_import_at: stats?.last_import_at ?? null,
      projection_lag: lag,
      projections: watched.map((s) => ({
        name: s.name,
        version: s.version,
        state: s.state,
        lag: s.lag,
        rebuilding: s.rebuilding !== null,
        last_error: s.last_error,
      })),
    };
  }

  /**
   * Company events after `position` (what the read models do not show yet). Other events (charges,
   * keys, ...) pass through the projections too but change no score, so they are not lag here.
   */
  private async pendingCompanyEvents(position: number): Promise<number> {
    let pending = 0;
    const filter = { streamPrefixes: [COMPANY_STREAM_PREFIX], eventTypePrefixes: COMPANY_EVENT_TYPES };
    for await (const _ of this.events.readAll({ after: position, filter, maxCount: MAX_COUNTED_LAG })) pending++;
    return pending;
  }
}
