/**
 * One import record (a JSON Lines object, or a CSV row mapped to the same shape), validated and
 * normalised into a CompanyProfileData. Strict: unknown fields are refused, so a typo is an error
 * rather than silently lost data. The accepted shape is documented in docs/scoring.md, "Import".
 */
import { z } from 'zod';
import { issuesToDetails } from '#http';
import { countryCode } from './countries.js';
import {
  type CompanyProfileData,
  type CompanySignals,
  normaliseDomain,
  ROUND_TYPES,
  type SeriesPoint,
  STAGES,
} from './company.profile.js';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** `Series A`, `series_a`, `SERIES-A` → `series-a`. */
const slugify = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

/*
 * Normalising strings is checked in one transform each rather than `transform(...).pipe(z.string()
 * .min().max())`: a pipe is a second schema run per value, and an import runs a dozen per record
 * (zod was a fifth of an import's CPU). The messages and their order are the pipe's; `continue:
 * true` keeps a list's own checks running after a bad entry, as the pipe's checks did.
 */
const issue = (ctx: z.core.$RefinementCtx, message: string) =>
  ctx.addIssue({ code: 'custom', message, continue: true });

const slug = z.string().transform((s, ctx) => {
  const name = slugify(s);
  const before = ctx.issues.length;
  if (name.length < 1) issue(ctx, 'expected a non-empty name');
  if (name.length > 40) issue(ctx, 'expected at most 40 characters');
  if (!SLUG.test(name)) issue(ctx, 'expected letters, digits and dashes (e.g. "fintech")');
  return ctx.issues.length > before ? z.NEVER : name;
});

/** A string of at most `rawMax` characters, trimmed, then from `min` to `max` characters. */
const trimmed = (rawMax: number, min: { length: number; message: string } | null, max: number, typeMessage?: string) =>
  z
    .string(typeMessage)
    .max(rawMax)
    .transform((s, ctx) => {
      const text = s.trim();
      const before = ctx.issues.length;
      if (min && text.length < min.length) issue(ctx, min.message);
      if (text.length > max) issue(ctx, `expected at most ${max} characters`);
      return ctx.issues.length > before ? z.NEVER : text;
    });

const unique = <T>(items: T[]) => [...new Set(items)];

const slugList = (max: number) => z.array(slug).max(max, `expected at most ${max} entries`).transform(unique);

/** Trimmed, at most `max` characters; absent, null and blank all read as null (unknown). */
const optionalText = (max: number) =>
  z
    .string()
    .max(max * 2)
    .transform((s, ctx) => {
      const text = s.trim();
      if (text.length <= max) return text ? text : null;
      issue(ctx, `expected at most ${max} characters`);
      return z.NEVER;
    })
    .nullish();

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number of the digits of `s` from `from` to `to` (exclusive), or -1 when one is not 0-9. */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

const DASH = 45;

/**
 * YYYY-MM-DD (or YYYY-MM → its first day) when it is a real calendar day from 1800 to 2100; else
 * null. Read digit by digit rather than by a RegExp and Number(): an import checks every series
 * point with it, which made it a quarter of the record check.
 */
export function calendarDay(input: string): string | null {
  const monthOnly = input.length === 7;
  if ((!monthOnly && input.length !== 10) || input.charCodeAt(4) !== DASH) return null;
  if (!monthOnly && input.charCodeAt(7) !== DASH) return null;
  const year = digits(input, 0, 4);
  const month = digits(input, 5, 7);
  const day = monthOnly ? 1 : digits(input, 8, 10);
  if (year < 1800 || year > 2100 || month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return null;
  return monthOnly ? `${input}-01` : input;
}

/** A valid calendar day YYYY-MM-DD, or a month YYYY-MM (taken as its first day). */
const day = z.string().transform((s, ctx) => {
  const iso = calendarDay(s.trim());
  if (iso === null) {
    ctx.addIssue({ code: 'custom', message: 'expected a date YYYY-MM-DD (or a month YYYY-MM)' });
    return z.NEVER;
  }
  return iso;
});

const usd = z
  .int('expected whole US dollars')
  .min(0, 'expected at least 0')
  .max(10_000_000_000_000, 'expected at most 10^13');

/**
 * A time series: `[{date, value}]`, at most 240 points, one per date, sorted on the way in.
 * The points are checked in one loop inside the zod schema rather than by a zod object per
 * point: a record has dozens of points, and this is most of an import's validation time.
 */
const series = (max: number) =>
  z
    .array(z.unknown(), 'expected a list of {date, value} points')
    .max(240, 'expected at most 240 points')
    .transform((items, ctx): SeriesPoint[] => {
      const points: SeriesPoint[] = [];
      let ordered = true;
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (item === null || typeof item !== 'object' || Array.isArray(item)) {
          ctx.addIssue({ code: 'custom', path: [i], message: 'expected {date, value}' });
          return z.NEVER;
        }
        const point = item as Record<string, unknown>;
        for (const key in point) {
          if (key !== 'date' && key !== 'value') {
            ctx.addIssue({ code: 'custom', path: [i, key], message: 'unknown field' });
            return z.NEVER;
          }
        }
        const date = typeof point.date === 'string' ? calendarDay(point.date.trim()) : null;
        if (date === null) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'date'],
            message: 'expected a date YYYY-MM-DD (or a month YYYY-MM)',
          });
          return z.NEVER;
        }
        const value = point.value;
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
          ctx.addIssue({ code: 'custom', path: [i, 'value'], message: `expected a number from 0 to ${max}` });
          return z.NEVER;
        }
        if (i > 0 && points[i - 1]!.date >= date) ordered = false;
        points.push({ date, value });
      }
      const sorted = ordered ? points : points.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i]!.date === sorted[i - 1]!.date) {
          ctx.addIssue({ code: 'custom', message: `two points on ${sorted[i]!.date}` });
          return z.NEVER;
        }
      }
      return sorted;
    });

const enumSlug = <const T extends readonly [string, ...string[]]>(values: T, what: string) => {
  const known: ReadonlySet<string> = new Set(values);
  const message = `expected a ${what}: ${values.join(', ')}`;
  return z.string().transform((s, ctx): T[number] => {
    const value = slugify(s);
    if (known.has(value)) return value;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
};

export const companyRecordSchema = z
  .strictObject({
    name: trimmed(400, { length: 1, message: 'expected a name' }, 200, 'expected a name'),
    domain: z.string('expected a domain, e.g. "example.com"').transform((s, ctx) => {
      const d = normaliseDomain(s);
      if (d === null) {
        ctx.addIssue({ code: 'custom', message: 'expected a domain, e.g. "example.com"' });
        return z.NEVER;
      }
      return d;
    }),
    description: optionalText(2000),
    sectors: slugList(10).optional(),
    tags: slugList(30).optional(),
    headquarters: z
      .strictObject({
        country: countryCode('"US"').nullish(),
        city: optionalText(100),
      })
      .nullish(),
    founded_year: z
      .int('expected a year')
      .min(1800, 'expected a year from 1800')
      .max(2100, 'expected a year up to 2100')
      .nullish(),
    stage: enumSlug(STAGES, 'stage').nullish(),
    headcount: z
      .int('expected a whole number of employees')
      .min(0, 'expected at least 0')
      .max(10_000_000, 'expected at most 10,000,000')
      .nullish(),
    total_funding_usd: usd.nullish(),
    last_round: z
      .strictObject({
        type: enumSlug(ROUND_TYPES, 'round type'),
        amount_usd: usd.nullish(),
        date: day,
      })
      .nullish(),
    investors: z
      .array(trimmed(400, { length: 1, message: 'expected a non-empty name' }, 200))
      .max(100, 'expected at most 100 investors')
      .transform(unique)
      .optional(),
    signals: z
      .strictObject({
        headcount: series(10_000_000).optional(),
        web_traffic: series(100_000_000_000).optional(),
        funding: series(10_000_000_000_000).optional(),
      })
      .nullish(),
  })
  .transform((r): CompanyProfileData => ({
    name: r.name,
    domain: r.domain,
    description: r.description ?? null,
    sectors: r.sectors ?? [],
    tags: r.tags ?? [],
    headquarters: { country: r.headquarters?.country ?? null, city: r.headquarters?.city ?? null },
    founded_year: r.founded_year ?? null,
    stage: r.stage ?? null,
    headcount: r.headcount ?? null,
    total_funding_usd: r.total_funding_usd ?? null,
    last_round: r.last_round
      ? { type: r.last_round.type, amount_usd: r.last_round.amount_usd ?? null, date: r.last_round.date }
      : null,
    investors: r.investors ?? [],
    signals: {
      headcount: r.signals?.headcount ?? [],
      web_traffic: r.signals?.web_traffic ?? [],
      funding: r.signals?.funding ?? [],
    } satisfies CompanySignals,
  }));

/** The JSON Lines record shape (input side). */
export type CompanyRecord = z.input<typeof companyRecordSchema>;

export type RecordCheck = { ok: true; profile: CompanyProfileData } | { ok: false; reason: string };

/** Validates one record; the reason names each bad field (`stage: expected a stage: …`). */
export function checkCompanyRecord(value: unknown): RecordCheck {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, reason: 'expected a JSON object' };
  const result = companyRecordSchema.safeParse(value);
  if (result.success) return { ok: true, profile: result.data };
  const reason = issuesToDetails(result.error.issues)
    .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))
    .join('; ');
  return { ok: false, reason };
}
