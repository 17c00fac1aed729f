import type { Doc, Sort } from '#documents';
import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import { COMPANY_EVENT_TYPES, type CompanyEvent } from '../companies/company.events.js';
import { applyChanges, type CompanyProfileData, type LastRound, type Stage } from '../companies/company.profile.js';
import { type CompanyScore, scoreCompany, SCORES_PROJECTION_VERSION } from './scoring-model.js';

/**
 * Scores as a projection (item 4): each company event re-scores its company with the current
 * model. A new model version is a new projection version, hence a rebuild into a fresh
 * generation while readers keep the old scores until the switch. The projection keeps its own
 * fold of the profile (`profile`) so it depends on no other read model.
 *
 * Collections:
 * - `company_scores`: one document per company (GET /companies/{id}/score);
 * - `discovery_rank`: one small document per company, the ranking precomputed: a page of
 *   GET /discovery/top is one index range read over (score desc, id), or over (stage, score
 *   desc, id) / (country, score desc, id) with a filter (both filters: one of them, the other
 *   checked along the range);
 * - `discovery_sectors`: one document per (company, sector), the same ranking per sector
 *   (a company has several sectors; the document store does not match array elements);
 * - `company_score_stats`: one document (`all`): companies scored, time of the last import, and
 *   the position of the last company event applied (readers key caches of pages on it; it is
 *   written last in each batch, after the documents it vouches for).
 */
export const COMPANY_SCORES_PROJECTION = 'company-scores';
export const COMPANY_SCORES_COLLECTION = 'company_scores';
export const DISCOVERY_RANK_COLLECTION = 'discovery_rank';
export const DISCOVERY_SECTORS_COLLECTION = 'discovery_sectors';
export const SCORE_STATS_COLLECTION = 'company_score_stats';
export const SCORE_STATS_ID = 'all';

/** What a discovery item shows of a company. */
export interface CompanySummary {
  id: string;
  name: string;
  domain: string;
  description: string | null;
  sectors: string[];
  stage: Stage | null;
  headquarters: { country: string | null; city: string | null };
  founded_year: number | null;
  headcount: number | null;
  total_funding_usd: number | null;
  last_round: LastRound | null;
}

export interface CompanyScoreDoc extends CompanyScore {
  [key: string]: unknown;
  id: string;
  name: string;
  domain: string;
  revision: number;
  /** The folded profile the score was computed from. */
  profile: CompanyProfileData;
}

export interface DiscoveryRankDoc {
  [key: string]: unknown;
  id: string;
  company_id: string;
  score: number;
  stage: Stage | null;
  country: string | null;
  /** Only on discovery_sectors documents. */
  sector?: string;
  model_version: string;
  company: CompanySummary;
}

export interface ScoreStatsDoc extends Doc {
  companies: number;
  last_import_at: string | null;
  /** Global position of the last company event applied: changes exactly when the ranking may have. */
  last_position: number;
}

const DESCRIPTION_CHARS = 200;

export function companySummary(id: string, p: CompanyProfileData): CompanySummary {
  const description =
    p.description && p.description.length > DESCRIPTION_CHARS
      ? `${p.description.slice(0, DESCRIPTION_CHARS - 1)}…`
      : p.description;
  return {
    id,
    name: p.name,
    domain: p.domain,
    description,
    sectors: p.sectors,
    stage: p.stage,
    headquarters: p.headquarters,
    founded_year: p.founded_year,
    headcount: p.headcount,
    total_funding_usd: p.total_funding_usd,
    last_round: p.last_round,
  };
}

export const sectorDocId = (companyId: string, sector: string) => `${companyId}:${sector}`;

const byScore: Sort = [['score', -1]];

export const companyScoresProjection: ProjectionDefinition = {
  name: COMPANY_SCORES_PROJECTION,
  version: SCORES_PROJECTION_VERSION,
  eventTypes: COMPANY_EVENT_TYPES,
  collections: [
    { name: COMPANY_SCORES_COLLECTION },
    {
      name: DISCOVERY_RANK_COLLECTION,
      indexes: [
        { fields: [...byScore] },
        { fields: [['stage', 1], ...byScore] },
        { fields: [['country', 1], ...byScore] },
      ],
    },
    {
      name: DISCOVERY_SECTORS_COLLECTION,
      indexes: [
        { fields: [['sector', 1], ...byScore] },
        { fields: [['sector', 1], ['stage', 1], ...byScore] },
        { fields: [['sector', 1], ['country', 1], ...byScore] },
      ],
    },
    { name: SCORE_STATS_COLLECTION },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as CompanyEvent;
    const id = event.data.company_id;
    const existing = await ctx.get<CompanyScoreDoc>(COMPANY_SCORES_COLLECTION, id);
    // Applied already (a replay): nothing to do, so applying an event twice changes nothing.
    if (existing && existing.revision >= raw.revision) return;
    let profile: CompanyProfileData;
    if (event.type === 'CompanyImported') profile = event.data.profile;
    else {
      if (!existing) throw new Error(`CompanyUpdated for ${id} before its CompanyImported`);
      profile = applyChanges(existing.profile, event.data.changes);
    }
    const score = scoreCompany(profile, event.data.at);
    const doc: CompanyScoreDoc = {
      id,
      name: profile.name,
      domain: profile.domain,
      ...score,
      revision: raw.revision,
      profile,
    };
    ctx.upsert(COMPANY_SCORES_COLLECTION, doc);

    const rank: DiscoveryRankDoc = {
      id,
      company_id: id,
      score: score.score,
      stage: profile.stage,
      country: profile.headquarters.country,
      model_version: score.model_version,
      company: companySummary(id, profile),
    };
    ctx.upsert(DISCOVERY_RANK_COLLECTION, rank);
    for (const sector of existing?.profile.sectors ?? []) {
      if (!profile.sectors.includes(sector)) ctx.delete(DISCOVERY_SECTORS_COLLECTION, sectorDocId(id, sector));
    }
    for (const sector of profile.sectors)
      ctx.upsert(DISCOVERY_SECTORS_COLLECTION, { ...rank, id: sectorDocId(id, sector), sector });

    const stats = (await ctx.get<ScoreStatsDoc>(SCORE_STATS_COLLECTION, SCORE_STATS_ID)) ?? {
      id: SCORE_STATS_ID,
      companies: 0,
      last_import_at: null,
      last_position: 0,
    };
    ctx.upsert(SCORE_STATS_COLLECTION, {
      id: SCORE_STATS_ID,
      companies: stats.companies + (existing ? 0 : 1),
      last_import_at:
        stats.last_import_at === null || event.data.at > stats.last_import_at ? event.data.at : stats.last_import_at,
      last_position: Math.max(stats.last_position, raw.position),
    } satisfies ScoreStatsDoc);
  },
};
