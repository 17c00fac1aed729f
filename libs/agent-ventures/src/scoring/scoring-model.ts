/**
 * The venture score (D20): 0–100 from five named components, each a documented function
 * of the profile. Pure and deterministic: the same profile and `computedAt` give the same score
 * on every run, so a projection rebuild reproduces every score exactly. docs/scoring.md is the
 * human description of this file; change both together, and bump MODEL_VERSION and
 * SCORES_PROJECTION_VERSION (the scores projection then rebuilds).
 *
 * Arithmetic (the rounding rule that makes "the components sum to the score" exact):
 * - a component's raw value x is in [0, 1]; its `value` is x on a 0–100 scale rounded to one
 *   decimal: V = round(1000·x) tenths;
 * - its weight W is a whole percentage (the five sum to 100);
 * - its `contribution`, in hundredths of a point, is C = floor((V·W + 5) / 10), i.e. value ×
 *   weight rounded half up to two decimals;
 * - the score, in hundredths, is the plain sum of the C: score = ΣC / 100, at most 100.
 * So Σ round(100·contribution) = round(100·score) holds exactly, in integers.
 */
import type { CompanyProfileData, SeriesPoint } from '../companies/company.profile.js';
import { daysBetween, type Growth, round, seriesGrowth } from '../companies/growth.js';

export const MODEL_VERSION = 'venture-score-v1';
/** The scores projection's version: bump with MODEL_VERSION so a new model rebuilds every score. */
export const SCORES_PROJECTION_VERSION = 1;

export const COMPONENT_NAMES = ['team', 'traction', 'momentum', 'market', 'capital_efficiency'] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** Whole percentages; they sum to 100. */
export const COMPONENT_WEIGHTS: Readonly<Record<ComponentName, number>> = Object.freeze({
  team: 15,
  traction: 20,
  momentum: 30,
  market: 20,
  capital_efficiency: 15,
});

/**
 * Market attractiveness by sector (0–100): the model's view of each market's size and growth.
 * A company gets the best of its sectors; a sector not listed gets UNLISTED_SECTOR_VALUE.
 */
export const SECTOR_MARKET_VALUES: Readonly<Record<string, number>> = Object.freeze({
  ai: 95,
  'machine-learning': 95,
  'generative-ai': 95,
  cybersecurity: 85,
  security: 85,
  'data-infrastructure': 85,
  semiconductors: 85,
  climate: 85,
  energy: 80,
  robotics: 80,
  biotech: 80,
  healthcare: 80,
  'digital-health': 75,
  devtools: 75,
  space: 75,
  fintech: 75,
  defense: 75,
  quantum: 70,
  saas: 65,
  'enterprise-software': 65,
  insurtech: 60,
  logistics: 60,
  mobility: 60,
  agtech: 60,
  marketplace: 55,
  legaltech: 55,
  proptech: 50,
  edtech: 50,
  ecommerce: 50,
  consumer: 50,
  'hr-tech': 50,
  gaming: 45,
  foodtech: 45,
  media: 40,
  web3: 35,
  crypto: 35,
});
export const UNLISTED_SECTOR_VALUE = 50;

/** The sectors the model knows, the published values of the discovery `sector` filter. */
export const SECTORS = Object.keys(SECTOR_MARKET_VALUES) as [string, ...string[]];

export interface ScoreComponent {
  name: ComponentName;
  /** 0–100, one decimal. */
  value: number;
  /** Fraction of the score (0.25 = 25 %). */
  weight: number;
  /** value × weight, two decimals (rounding: see the file comment); the contributions sum to the score. */
  contribution: number;
  /** The profile facts the value was computed from. */
  inputs: Record<string, string | number | null>;
  explanation: string;
}

export interface CompanyScore {
  /** 0–100, two decimals: the sum of the contributions. */
  score: number;
  model_version: string;
  /** Time of the event that produced this score (not the clock of whoever computed it). */
  computed_at: string;
  components: ScoreComponent[];
  explanation: string;
}

const clamp01 = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x);

/** 0 at or below `lo`, 1 at or above `hi`, linear in log10 between. */
export function logScale(x: number, lo: number, hi: number): number {
  if (!(x > lo)) return 0;
  if (x >= hi) return 1;
  return (Math.log10(x) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
}

/** Linear: 0 at `lo`, 1 at `hi`, clamped. */
const linear = (x: number, lo: number, hi: number) => clamp01((x - lo) / (hi - lo));

const last = (series: readonly SeriesPoint[]) => series[series.length - 1] ?? null;

const pct = (rate: number) => `${rate >= 0 ? '+' : ''}${Math.round(rate * 100)}%`;

/** 1234 → "1,234"; 1_250_000 → "1.3M"; deterministic, locale-free. */
export function compact(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${trim(n / 1e9)}B`;
  if (abs >= 1e6) return `${trim(n / 1e6)}M`;
  if (abs >= 1e4) return `${trim(n / 1e3)}k`;
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
const trim = (x: number) => (Math.abs(x) >= 100 ? String(Math.round(x)) : String(round(x, 1)));
const usd = (n: number) => `$${compact(n)}`;

interface Raw {
  x: number;
  inputs: Record<string, string | number | null>;
  explanation: string;
}

function team(p: CompanyProfileData): Raw {
  const size = p.headcount === null ? 0 : logScale(p.headcount, 2, 250);
  const backers = Math.min(p.investors.length, 8) / 8;
  const sizeText = p.headcount === null ? 'no headcount data' : `${compact(p.headcount)} employees`;
  return {
    x: 0.6 * size + 0.4 * backers,
    inputs: { headcount: p.headcount, investors: p.investors.length },
    explanation: `${sizeText}; ${p.investors.length === 1 ? '1 investor' : `${p.investors.length} investors`}`,
  };
}

function traction(p: CompanyProfileData): Raw {
  const visits = last(p.signals.web_traffic);
  if (!visits) return { x: 0, inputs: { monthly_visits: null, as_of: null }, explanation: 'no web traffic data' };
  return {
    x: logScale(visits.value, 1_000, 5_000_000),
    inputs: { monthly_visits: visits.value, as_of: visits.date },
    explanation: `${compact(visits.value)} monthly visits (${visits.date})`,
  };
}

function momentum(p: CompanyProfileData, computedAt: string): Raw {
  const parts: number[] = [];
  const words: string[] = [];
  const headcount: Growth | null = seriesGrowth(p.signals.headcount);
  const traffic: Growth | null = seriesGrowth(p.signals.web_traffic);
  const headcountRate = headcount?.annual_rate ?? null;
  const trafficRate = traffic?.annual_rate ?? null;
  if (headcountRate !== null) {
    parts.push(linear(headcountRate, -0.2, 1));
    words.push(`headcount ${pct(headcountRate)}/yr`);
  }
  if (trafficRate !== null) {
    parts.push(linear(trafficRate, -0.3, 2));
    words.push(`web traffic ${pct(trafficRate)}/yr`);
  }
  let monthsSinceRound: number | null = null;
  if (p.last_round) {
    monthsSinceRound = round(Math.max(0, daysBetween(p.last_round.date, computedAt.slice(0, 10))) / 30.4375, 1);
    parts.push(clamp01(1 - monthsSinceRound / 36));
    words.push(`last round ${Math.round(monthsSinceRound)} months ago`);
  }
  return {
    x: parts.length === 0 ? 0 : parts.reduce((a, b) => a + b, 0) / parts.length,
    inputs: {
      headcount_growth_annual: headcountRate,
      web_traffic_growth_annual: trafficRate,
      months_since_last_round: monthsSinceRound,
    },
    explanation: words.length ? words.join(', ') : 'no growth history and no funding round',
  };
}

function market(p: CompanyProfileData): Raw {
  if (p.sectors.length === 0) return { x: 0, inputs: { sector: null }, explanation: 'no sector' };
  let best = p.sectors[0]!;
  let bestValue = -1;
  for (const sector of p.sectors) {
    const value = SECTOR_MARKET_VALUES[sector] ?? UNLISTED_SECTOR_VALUE;
    if (value > bestValue) {
      best = sector;
      bestValue = value;
    }
  }
  return { x: bestValue / 100, inputs: { sector: best }, explanation: `best market: ${best}` };
}

function capitalEfficiency(p: CompanyProfileData): Raw {
  const inputs = {
    total_funding_usd: p.total_funding_usd,
    headcount: p.headcount,
    funding_per_employee_usd: null as number | null,
  };
  if (p.headcount === null || p.headcount === 0) return { x: 0, inputs, explanation: 'no headcount data' };
  if (p.total_funding_usd === null) return { x: 0, inputs, explanation: 'no funding data' };
  const perHead = Math.round(p.total_funding_usd / p.headcount);
  inputs.funding_per_employee_usd = perHead;
  return {
    x: 1 - logScale(perHead, 25_000, 1_000_000),
    inputs,
    explanation: p.total_funding_usd === 0 ? 'no outside funding' : `${usd(perHead)} raised per employee`,
  };
}

const LABEL: Record<ComponentName, string> = {
  team: 'team',
  traction: 'traction',
  momentum: 'momentum',
  market: 'market',
  capital_efficiency: 'capital efficiency',
};

/** The score of a profile as of `computedAt` (ISO; the time of the event that produced it). */
export function scoreCompany(profile: CompanyProfileData, computedAt: string): CompanyScore {
  const raw: Record<ComponentName, Raw> = {
    team: team(profile),
    traction: traction(profile),
    momentum: momentum(profile, computedAt),
    market: market(profile),
    capital_efficiency: capitalEfficiency(profile),
  };
  let hundredths = 0;
  const components = COMPONENT_NAMES.map((name): ScoreComponent => {
    const r = raw[name];
    const tenths = Math.round(clamp01(r.x) * 1000);
    const weight = COMPONENT_WEIGHTS[name];
    const contribution = Math.floor((tenths * weight + 5) / 10);
    hundredths += contribution;
    return {
      name,
      value: tenths / 10,
      weight: weight / 100,
      contribution: contribution / 100,
      inputs: r.inputs,
      explanation: r.explanation,
    };
  });
  const score = hundredths / 100;
  return {
    score,
    model_version: MODEL_VERSION,
    computed_at: computedAt,
    components,
    explanation: explain(score, components),
  };
}

/** "Score 71.85/100. Strongest: traction 88 (…) and momentum 80.5 (…). Weakest: capital efficiency 35.2 (…)." */
function explain(score: number, components: ScoreComponent[]): string {
  // By value, ties in the fixed component order: deterministic.
  const ranked = [...components].sort(
    (a, b) => b.value - a.value || COMPONENT_NAMES.indexOf(a.name) - COMPONENT_NAMES.indexOf(b.name),
  );
  const describe = (c: ScoreComponent) => `${LABEL[c.name]} ${c.value} (${c.explanation})`;
  const [first, second] = ranked;
  const weakest = ranked[ranked.length - 1]!;
  return `Score ${score}/100. Strongest: ${describe(first!)} and ${describe(second!)}. Weakest: ${describe(weakest)}.`;
}
