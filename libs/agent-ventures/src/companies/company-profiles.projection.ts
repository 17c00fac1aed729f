import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import { COMPANY_EVENT_TYPES, type CompanyEvent } from './company.events.js';
import { applyChanges, type CompanyProfileData } from './company.profile.js';
import { type CompanyGrowth, companyGrowth } from './growth.js';

/** Read model of company profiles (GET /api/v1/companies/{id}): the folded profile plus its growth. */
export interface CompanyProfileDoc extends CompanyProfileData {
  [key: string]: unknown;
  id: string;
  growth: CompanyGrowth;
  /** Stream revision of the last event applied: a replayed event is recognised and skipped. */
  revision: number;
  content_hash: string;
  source: string;
  created_at: string;
  updated_at: string;
}

export const COMPANY_PROFILES_PROJECTION = 'company-profiles';
export const COMPANY_PROFILES_COLLECTION = 'company_profiles';

export const companyProfilesProjection: ProjectionDefinition = {
  name: COMPANY_PROFILES_PROJECTION,
  version: 1,
  eventTypes: COMPANY_EVENT_TYPES,
  collections: [{ name: COMPANY_PROFILES_COLLECTION }],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as CompanyEvent;
    const id = event.data.company_id;
    const existing = await ctx.get<CompanyProfileDoc>(COMPANY_PROFILES_COLLECTION, id);
    if (existing && existing.revision >= raw.revision) return;
    let profile: CompanyProfileData;
    if (event.type === 'CompanyImported') profile = event.data.profile;
    else {
      if (!existing) throw new Error(`CompanyUpdated for ${id} before its CompanyImported`);
      profile = applyChanges(profileOf(existing), event.data.changes);
    }
    const doc: CompanyProfileDoc = {
      id,
      ...profile,
      growth: companyGrowth(profile.signals),
      revision: raw.revision,
      content_hash: event.data.content_hash,
      source: event.data.source,
      created_at: existing?.created_at ?? event.data.at,
      updated_at: event.data.at,
    };
    ctx.upsert(COMPANY_PROFILES_COLLECTION, doc);
  },
};

/** The profile fields of a stored document (what the API returns, without bookkeeping). */
export function profileOf(doc: CompanyProfileDoc): CompanyProfileData {
  return {
    name: doc.name,
    domain: doc.domain,
    description: doc.description,
    sectors: doc.sectors,
    tags: doc.tags,
    headquarters: doc.headquarters,
    founded_year: doc.founded_year,
    stage: doc.stage,
    headcount: doc.headcount,
    total_funding_usd: doc.total_funding_usd,
    last_round: doc.last_round,
    investors: doc.investors,
    signals: doc.signals,
  };
}
