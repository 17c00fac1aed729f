import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { invalidCursor } from '#http';
import { BoundedCache, decodeOpaqueCursor, encodeOpaqueCursor } from '#kernel';
import type { Filter } from '#documents';
import { ProjectionStore } from '#projections';
import {
  COMPANY_SCORES_PROJECTION,
  DISCOVERY_RANK_COLLECTION,
  DISCOVERY_SECTORS_COLLECTION,
  type DiscoveryRankDoc,
  SCORE_STATS_COLLECTION,
  SCORE_STATS_ID,
  type ScoreStatsDoc,
} from '../../scoring/company-scores.projection.js';
import { MODEL_VERSION } from '../../scoring/scoring-model.js';
import { TopCompaniesQuery } from './top-companies.query.js';
import type { DiscoveryPage, TopCompaniesQueryParams } from './top-companies.schema.js';

/**
 * Our cursor wraps the document store's keyset cursor (score, id of the last item) with the
 * filters it belongs to and the rank reached, so pages are stable (no repeats, no gaps while the
 * data does not change) and ranks continue across pages.
 */
const cursorBody = z.strictObject({
  f: z.string(),
  r: z.number().int().min(0),
  c: z.string(),
});
type CursorBody = z.output<typeof cursorBody>;

const filterKey = (p: TopCompaniesQueryParams) => `${p.sector ?? ''}|${p.stage ?? ''}|${p.country ?? ''}`;

function decodeCursor(cursor: string, key: string): CursorBody {
  const body = decodeOpaqueCursor(cursor, cursorBody);
  if (!body || body.f !== key) throw invalidCursor();
  return body;
}

const SORT: Array<[string, 1 | -1]> = [['score', -1]];
const CACHE_ENTRIES = 256;

/**
 * Pages are cached, keyed by the ranking's version: the position of the last company event the
 * scores projection applied (its stats document, one small read). A cached page is exactly what
 * the read model holds at that version, and the version moves only when an import changes a
 * company, so popular pages (the top 10) are served without the range read and its parsing.
 */
@QueryHandler(TopCompaniesQuery)
export class TopCompaniesHandler implements IQueryHandler<TopCompaniesQuery, DiscoveryPage> {
  private readonly cache = new BoundedCache<string, DiscoveryPage>({ maxEntries: CACHE_ENTRIES });

  constructor(private readonly projections: ProjectionStore) {}

  async execute({ params }: TopCompaniesQuery): Promise<DiscoveryPage> {
    const key = filterKey(params);
    const after = params.cursor ? decodeCursor(params.cursor, key) : null;
    const [generation, stats] = await Promise.all([
      this.projections.generation(COMPANY_SCORES_PROJECTION),
      this.projections.collection<ScoreStatsDoc>(COMPANY_SCORES_PROJECTION, SCORE_STATS_COLLECTION).get(SCORE_STATS_ID),
    ]);
    const cacheKey = `${generation}:${stats?.last_position ?? 0}:${key}:${params.limit}:${params.cursor ?? ''}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const page = await this.read(params, key, after);
    this.cache.set(cacheKey, page);
    return page;
  }

  private async read(params: TopCompaniesQueryParams, key: string, after: CursorBody | null): Promise<DiscoveryPage> {
    const filter: Filter = {};
    if (params.sector) filter.sector = params.sector;
    if (params.stage) filter.stage = params.stage;
    if (params.country) filter.country = params.country;
    const collection = this.projections.collection<DiscoveryRankDoc>(
      COMPANY_SCORES_PROJECTION,
      params.sector ? DISCOVERY_SECTORS_COLLECTION : DISCOVERY_RANK_COLLECTION,
    );
    let result;
    try {
      result = await collection.find(filter, { sort: SORT, limit: params.limit, ...(after ? { after: after.c } : {}) });
    } catch (error) {
      if ((error as Error).name === 'InvalidFilterError') throw invalidCursor();
      throw error;
    }
    const offset = after?.r ?? 0;
    return {
      model_version: result.items[0]?.model_version ?? MODEL_VERSION,
      filters: { sector: params.sector ?? null, stage: params.stage ?? null, country: params.country ?? null },
      data: result.items.map((doc, i) => ({ rank: offset + i + 1, score: doc.score, company: doc.company })),
      has_more: result.nextCursor !== null,
      next_cursor:
        result.nextCursor === null
          ? null
          : encodeOpaqueCursor({ f: key, r: offset + result.items.length, c: result.nextCursor }),
    };
  }
}
