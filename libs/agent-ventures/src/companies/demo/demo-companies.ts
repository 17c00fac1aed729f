/**
 * The demo data set (item 3, D20): plausible, entirely fictional companies from a fixed seed.
 * `demoCompanies({seed, count, asOf})` is a pure function: the same arguments give the same
 * records, byte for byte (dates are relative to `asOf`). Records are in the JSON Lines import
 * shape and go through the ordinary importer. The word lists and distributions are data, in
 * demo-companies.data.yaml.
 */
import { z } from 'zod';
import { loadDataFile } from '#kernel';
import type { CompanyRecord } from '../company-record.schema.js';
import { Prng } from './prng.js';

export const DEMO_SEED = 20_261_121;
export const DEMO_COUNT = 5000;

const weighted = <T extends z.ZodType>(value: T) => z.tuple([value, z.number().positive()]);
const words = z.array(z.string().min(1)).min(1);

/** The word lists and distributions (demo-companies.data.yaml): content, checked at load. */
const demoDataFileSchema = z.strictObject({
  stage_profiles: z
    .array(
      z.strictObject({
        stage: z.string(),
        weight: z.number().positive(),
        /** Typical age in years, employees, total funding (USD). */
        age: z.number().positive(),
        headcount: z.number().positive(),
        funding: z.number().positive(),
        round: z.string(),
        /** Typical annual headcount growth (web traffic grows about 1.6 times as fast). */
        growth: z.number(),
      }),
    )
    .min(1),
  sectors: z.array(weighted(z.string())).min(1),
  tags: z.record(z.string(), words),
  product: z.record(z.string(), words),
  /** [country, city, weight]. */
  places: z.array(z.tuple([z.string(), z.string(), z.number().positive()])).min(1),
  name_heads: words,
  /** '' is a name with no tail. */
  name_tails: z.array(z.string()).min(1),
  sector_tails: z.record(z.string(), words),
  tlds: z.array(weighted(z.string())).min(1),
  investors: words,
});

const DATA = loadDataFile(import.meta.url, './demo-companies.data.yaml', demoDataFileSchema);
const STAGE_PROFILES = DATA.stage_profiles;
const SECTORS = DATA.sectors;
const TAGS = DATA.tags;
const PRODUCT = DATA.product;
const PLACES = DATA.places.map(([country, city, weight]) => [[country, city] as const, weight] as const);
const NAME_HEADS = DATA.name_heads;
const NAME_TAILS = DATA.name_tails;
const SECTOR_TAILS = DATA.sector_tails;
const TLDS = DATA.tlds;
const INVESTORS = DATA.investors;

const pad = (n: number) => String(n).padStart(2, '0');

/** `asOf` (YYYY-MM-DD) minus `months` whole months, on the first of the month. */
function monthsBefore(asOf: string, months: number): string {
  const year = Number(asOf.slice(0, 4));
  const month = Number(asOf.slice(5, 7)) - 1 - months;
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return `${y}-${pad(m + 1)}-01`;
}

function daysBefore(asOf: string, days: number): string {
  return new Date(Date.parse(`${asOf}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

const roundTo = (x: number, unit: number) => Math.max(unit, Math.round(x / unit) * unit);
const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '');

export interface DemoOptions {
  seed?: number;
  count?: number;
  /** Reference day (YYYY-MM-DD): the newest data point and the dates of rounds are relative to it. */
  asOf: string;
}

/** The demo companies, lazily (the benchmark generates 100,000). */
export function* demoCompanies(options: DemoOptions): Generator<CompanyRecord> {
  const rng = new Prng(options.seed ?? DEMO_SEED);
  const count = options.count ?? DEMO_COUNT;
  const asOf = options.asOf;
  const asOfYear = Number(asOf.slice(0, 4));
  const domains = new Set<string>();
  for (let i = 0; i < count; i++) {
    const profile = rng.weighted(STAGE_PROFILES.map((p) => [p, p.weight] as const));
    const primary = rng.weighted(SECTORS);
    const sectorTails = SECTOR_TAILS[primary];
    const tail = sectorTails && rng.next() < 0.35 ? rng.pick(sectorTails) : rng.pick(NAME_TAILS);
    const head = rng.pick(NAME_HEADS);
    const second = rng.next() < 0.35 ? rng.pick(NAME_HEADS).toLowerCase() : '';
    const base = `${head}${second}`;
    const name = tail === '' ? base : tail === 'ly' || tail === 'io' ? `${base}${tail}` : `${base} ${tail}`;
    let domain = `${slug(name)}.${rng.weighted(TLDS)}`;
    for (let n = 2; domains.has(domain); n++) domain = `${slug(name)}${n}.${rng.weighted(TLDS)}`;
    domains.add(domain);

    const sectors = [primary];
    if (rng.next() < 0.45) {
      const other = rng.weighted(SECTORS);
      if (other !== primary) sectors.push(other);
    }
    const tags = rng.sample(TAGS[primary] ?? [], rng.int(1, 3));
    const [country, city] = rng.weighted(PLACES);

    const age = Math.max(0, Math.round(profile.age + rng.normal() * 1.5));
    const headcount = Math.max(1, Math.round(rng.logNormal(profile.headcount, 0.45)));
    const totalFunding =
      profile.stage === 'pre-seed' && rng.next() < 0.2 ? 0 : roundTo(rng.logNormal(profile.funding, 0.5), 100_000);
    const roundMonths = rng.int(1, 30);
    const roundAmount =
      totalFunding === 0
        ? 0
        : roundTo(totalFunding * (profile.stage === 'pre-seed' ? 1 : 0.35 + rng.next() * 0.3), 100_000);

    // Growth this company shows over the last two years (annual rates).
    const headcountGrowth = Math.max(-0.3, rng.normal() * 0.35 + profile.growth);
    const trafficGrowth = Math.max(-0.5, rng.normal() * 0.6 + profile.growth * 1.6);
    const visitsNow = Math.max(200, Math.round(rng.logNormal(profile.headcount * 900, 0.9)));
    const headcountSeries = [];
    const trafficSeries = [];
    for (let q = 8; q >= 0; q--) {
      const years = (q * 3) / 12;
      const date = monthsBefore(asOf, q * 3 + 1);
      const hc = Math.max(1, Math.round((headcount / (1 + headcountGrowth) ** years) * (1 + rng.normal() * 0.03)));
      const visits = Math.max(50, Math.round((visitsNow / (1 + trafficGrowth) ** years) * (1 + rng.normal() * 0.08)));
      headcountSeries.push({ date, value: q === 0 ? headcount : hc });
      trafficSeries.push({ date, value: visits });
    }
    const roundDate = daysBefore(asOf, roundMonths * 30 + rng.int(0, 29));
    const fundingSeries =
      totalFunding === 0
        ? []
        : totalFunding === roundAmount
          ? [{ date: roundDate, value: totalFunding }]
          : [
              { date: daysBefore(roundDate, rng.int(400, 900)), value: totalFunding - roundAmount },
              { date: roundDate, value: totalFunding },
            ];
    const product = rng.pick(PRODUCT[primary] ?? ['software']);
    const record: CompanyRecord = {
      name,
      domain,
      description: `${name} builds ${product}. Founded in ${asOfYear - age}, based in ${city}.`,
      sectors,
      tags,
      headquarters: { country, city },
      founded_year: asOfYear - age,
      stage: profile.stage,
      headcount,
      total_funding_usd: totalFunding,
      last_round: totalFunding === 0 ? null : { type: profile.round, amount_usd: roundAmount, date: roundDate },
      investors:
        totalFunding === 0
          ? []
          : rng.sample(INVESTORS, Math.min(8, 1 + Math.floor(rng.next() * (2 + STAGE_PROFILES.indexOf(profile))))),
      signals: { headcount: headcountSeries, web_traffic: trafficSeries, funding: fundingSeries },
    };
    yield record;
  }
}
