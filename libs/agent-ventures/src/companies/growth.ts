import type { CompanySignals, SeriesPoint } from './company.profile.js';

/**
 * Growth of one time series (docs/scoring.md, "Growth"): from a base point to the latest point.
 * The base is the point nearest to one year before the latest among those at least 90 days
 * before it (ties: the earlier). `annual_rate` is the compound rate per 365 days over that span,
 * rounded to 4 decimals (0.25 = +25 % a year, at most 1000); null when the base value is 0.
 */
export interface Growth {
  from_date: string;
  to_date: string;
  from_value: number;
  to_value: number;
  days: number;
  annual_rate: number | null;
}

const MIN_SPAN_DAYS = 90;
const YEAR_DAYS = 365;
const MAX_ANNUAL_RATE = 1000;

const digits = (s: string, from: number, to: number) => {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
};

/** Days since 1970-01-01 of a YYYY-MM-DD day (proleptic Gregorian; no Date object: this runs per point). */
export function dayNumber(day: string): number {
  let y = digits(day, 0, 4);
  const m = digits(day, 5, 7);
  const d = digits(day, 8, 10);
  if (m <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

export const round = (x: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};

export function seriesGrowth(series: readonly SeriesPoint[]): Growth | null {
  const last = series[series.length - 1];
  if (!last) return null;
  let base: SeriesPoint | null = null;
  let baseDistance = Infinity;
  for (let i = series.length - 2; i >= 0; i--) {
    const point = series[i]!;
    const days = daysBetween(point.date, last.date);
    if (days < MIN_SPAN_DAYS) continue;
    const distance = Math.abs(days - YEAR_DAYS);
    // Walking backwards, `<=` lets an equally near earlier point win the tie.
    if (distance <= baseDistance) {
      base = point;
      baseDistance = distance;
    }
  }
  if (!base) return null;
  const days = daysBetween(base.date, last.date);
  // Capped at +100,000 % a year: tiny bases over short spans would otherwise explode.
  const annual =
    base.value > 0 ? round(Math.min((last.value / base.value) ** (YEAR_DAYS / days) - 1, MAX_ANNUAL_RATE), 4) : null;
  return {
    from_date: base.date,
    to_date: last.date,
    from_value: base.value,
    to_value: last.value,
    days,
    annual_rate: annual,
  };
}

export interface CompanyGrowth {
  headcount: Growth | null;
  web_traffic: Growth | null;
  funding: Growth | null;
}

export function companyGrowth(signals: CompanySignals): CompanyGrowth {
  return {
    headcount: seriesGrowth(signals.headcount),
    web_traffic: seriesGrowth(signals.web_traffic),
    funding: seriesGrowth(signals.funding),
  };
}
