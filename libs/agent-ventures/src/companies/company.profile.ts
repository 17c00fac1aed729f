/**
 * The company profile (D20): what an import says about one company, normalised. It is
 * the payload of `CompanyImported` and, field by field, of `CompanyUpdated`; read models and the
 * scoring model derive everything else from it. Field meanings: docs/scoring.md, "Profile".
 */
import { hash } from 'node:crypto';

/** Funding stage of the company, earliest first. */
export const STAGES = ['pre-seed', 'seed', 'series-a', 'series-b', 'series-c', 'series-d', 'growth', 'public'] as const;
export type Stage = (typeof STAGES)[number];

/** Type of a financing round. */
export const ROUND_TYPES = [
  'pre-seed',
  'seed',
  'series-a',
  'series-b',
  'series-c',
  'series-d',
  'series-e',
  'growth',
  'bridge',
  'convertible',
  'debt',
  'grant',
  'ipo',
] as const;
export type RoundType = (typeof ROUND_TYPES)[number];

/** One observation of a time series: a calendar day (YYYY-MM-DD) and a value >= 0. */
export interface SeriesPoint {
  date: string;
  value: number;
}

/**
 * Time series, each sorted by date, one point per date:
 * - headcount: employees;
 * - web_traffic: website visits per month;
 * - funding: cumulative funding raised to that date, whole USD.
 */
export interface CompanySignals {
  headcount: SeriesPoint[];
  web_traffic: SeriesPoint[];
  funding: SeriesPoint[];
}
export const SIGNAL_NAMES = ['headcount', 'web_traffic', 'funding'] as const satisfies ReadonlyArray<
  keyof CompanySignals
>;

export interface LastRound {
  type: RoundType;
  /** Whole USD; null when undisclosed. */
  amount_usd: number | null;
  /** YYYY-MM-DD. */
  date: string;
}

/**
 * The imported facts about a company (no id: the id is derived from the domain). Every field is
 * present; unknown values are null or empty lists. Funding figures are whole US dollars: they
 * are reported figures about third parties, not money this service moves (that is in cents).
 */
export interface CompanyProfileData {
  name: string;
  /** Normalised: lower case, no scheme, no `www.`, no path. The natural key. */
  domain: string;
  description: string | null;
  /** Slugs (`ai`, `fintech`, ...), first = primary. */
  sectors: string[];
  tags: string[];
  headquarters: { country: string | null; city: string | null };
  founded_year: number | null;
  stage: Stage | null;
  headcount: number | null;
  total_funding_usd: number | null;
  last_round: LastRound | null;
  investors: string[];
  signals: CompanySignals;
}

export type ProfileField = keyof CompanyProfileData;
export const PROFILE_FIELDS: readonly ProfileField[] = [
  'name',
  'domain',
  'description',
  'sectors',
  'tags',
  'headquarters',
  'founded_year',
  'stage',
  'headcount',
  'total_funding_usd',
  'last_round',
  'investors',
  'signals',
];

/** What a `CompanyUpdated` carries: the fields that changed, with their new values; for signals, the series that changed. */
export type ProfileChanges = Partial<Omit<CompanyProfileData, 'signals'>> & { signals?: Partial<CompanySignals> };

export const companyStream = (companyId: string) => `company-${companyId}`;
/** Prefix of every company stream (`company-cmp_…`). */
export const COMPANY_STREAM_PREFIX = 'company-cmp_';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The stable id of the company at `domain` (already normalised): `cmp_` + 26 Crockford base32
 * characters of SHA-256("company:" + domain). Importing the same domain again addresses the same
 * stream, from any file, process or machine. (Unlike other ids these are not time-sortable:
 * stability is what matters here.)
 */
export function companyIdFor(domain: string): string {
  // One-shot hash(): no Hash object per call (an import hashes every record twice).
  const digest = hash('sha256', `company:${domain}`, 'buffer');
  let bits = 0;
  let acc = 0;
  let out = '';
  for (let i = 0; out.length < 26;) {
    if (bits < 5) {
      acc = ((acc << 8) | digest[i++]!) & 0xffff;
      bits += 8;
    }
    out += CROCKFORD[(acc >> (bits - 5)) & 31];
    bits -= 5;
  }
  return `cmp_${out}`;
}

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * `https://www.Example.com/about` → `example.com`; null when what remains is not a host name
 * with a top-level domain.
 */
export function normaliseDomain(input: string): string | null {
  let d = input.trim().toLowerCase();
  d = d.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  d = d.split(/[/?#]/, 1)[0]!;
  d = d
    .replace(/^[^@]*@/, '')
    .replace(/:\d*$/, '')
    .replace(/\.$/, '');
  if (d.startsWith('www.')) d = d.slice(4);
  return DOMAIN.test(d) ? d : null;
}

/** A company id, or the id a domain maps to (the API accepts both); null when it is neither. */
export function resolveCompanyId(idOrDomain: string): string | null {
  if (/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/.test(idOrDomain)) return idOrDomain;
  const domain = normaliseDomain(idOrDomain);
  return domain ? companyIdFor(domain) : null;
}

/** JSON with object keys sorted at every level: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

const points = (series: readonly SeriesPoint[]) => series.map((p) => ({ date: p.date, value: p.value }));

/**
 * The profile rebuilt with its fields in one fixed order, so equal profiles serialise to equal
 * JSON whatever order their keys came in (and much faster than sorting keys generically).
 */
function fixedOrder(p: CompanyProfileData): CompanyProfileData {
  return {
    name: p.name,
    domain: p.domain,
    description: p.description,
    sectors: p.sectors,
    tags: p.tags,
    headquarters: { country: p.headquarters.country, city: p.headquarters.city },
    founded_year: p.founded_year,
    stage: p.stage,
    headcount: p.headcount,
    total_funding_usd: p.total_funding_usd,
    last_round:
      p.last_round === null
        ? null
        : { type: p.last_round.type, amount_usd: p.last_round.amount_usd, date: p.last_round.date },
    investors: p.investors,
    signals: {
      headcount: points(p.signals.headcount),
      web_traffic: points(p.signals.web_traffic),
      funding: points(p.signals.funding),
    },
  };
}

/** Fingerprint of a profile (128 bits of SHA-256 over its JSON in a fixed field order): equal profiles, equal hash. */
export function profileHash(profile: CompanyProfileData): string {
  return hash('sha256', JSON.stringify(fixedOrder(profile)), 'hex').slice(0, 32);
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** The fields of `next` that differ from `current` (signals: per series); empty when equal. */
export function diffProfiles(current: CompanyProfileData, next: CompanyProfileData): ProfileChanges {
  const changes: Record<string, unknown> = {};
  for (const field of PROFILE_FIELDS) {
    if (field === 'signals') {
      const signals: Partial<CompanySignals> = {};
      for (const name of SIGNAL_NAMES)
        if (!same(current.signals[name], next.signals[name])) signals[name] = next.signals[name];
      if (Object.keys(signals).length > 0) changes.signals = signals;
    } else if (!same(current[field], next[field])) {
      changes[field] = next[field];
    }
  }
  return changes as ProfileChanges;
}

/** The profile after a `CompanyUpdated`. */
export function applyChanges(current: CompanyProfileData, changes: ProfileChanges): CompanyProfileData {
  const { signals, ...fields } = changes;
  return { ...current, ...fields, signals: signals ? { ...current.signals, ...signals } : current.signals };
}

export function hasChanges(changes: ProfileChanges): boolean {
  return Object.keys(changes).length > 0;
}
