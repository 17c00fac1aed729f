// Over 400 lines on purpose: the generator's word lists and distributions are data that the
// generator reads top to bottom; moving them apart would not make either easier to follow.
/**
 * The demo data set (item 3, D20): plausible, entirely fictional companies from a fixed seed.
 * `demoCompanies({seed, count, asOf})` is a pure function: the same arguments give the same
 * records, byte for byte (dates are relative to `asOf`). Records are in the JSON Lines import
 * shape and go through the ordinary importer.
 */
import type { CompanyRecord } from '../company-record.schema.js';
import { Prng } from './prng.js';

export const DEMO_SEED = 20_261_121;
export const DEMO_COUNT = 5000;

interface StageProfile {
  stage: string;
  weight: number;
  /** Typical age in years, employees, total funding (USD). */
  age: number;
  headcount: number;
  funding: number;
  round: string;
  /** Typical annual headcount growth (web traffic grows about 1.6 times as fast). */
  growth: number;
}

const STAGE_PROFILES: StageProfile[] = [
  { stage: 'pre-seed', weight: 15, age: 1, headcount: 4, funding: 600_000, round: 'pre-seed', growth: 0.9 },
  { stage: 'seed', weight: 30, age: 2, headcount: 12, funding: 3_500_000, round: 'seed', growth: 0.7 },
  { stage: 'series-a', weight: 22, age: 4, headcount: 38, funding: 16_000_000, round: 'series-a', growth: 0.55 },
  { stage: 'series-b', weight: 14, age: 6, headcount: 110, funding: 50_000_000, round: 'series-b', growth: 0.4 },
  { stage: 'series-c', weight: 9, age: 8, headcount: 260, funding: 120_000_000, round: 'series-c', growth: 0.3 },
  { stage: 'series-d', weight: 4, age: 10, headcount: 480, funding: 260_000_000, round: 'series-d', growth: 0.2 },
  { stage: 'growth', weight: 5, age: 11, headcount: 900, funding: 480_000_000, round: 'growth', growth: 0.15 },
  { stage: 'public', weight: 1, age: 14, headcount: 2600, funding: 900_000_000, round: 'ipo', growth: 0.06 },
];

const SECTORS: Array<readonly [string, number]> = [
  ['ai', 14],
  ['fintech', 10],
  ['saas', 9],
  ['healthcare', 7],
  ['devtools', 7],
  ['cybersecurity', 6],
  ['climate', 6],
  ['data-infrastructure', 5],
  ['marketplace', 5],
  ['ecommerce', 4],
  ['biotech', 4],
  ['robotics', 3],
  ['edtech', 3],
  ['logistics', 3],
  ['insurtech', 2],
  ['proptech', 2],
  ['mobility', 2],
  ['consumer', 3],
  ['gaming', 2],
  ['media', 2],
  ['energy', 2],
  ['hr-tech', 2],
  ['legaltech', 1],
  ['agtech', 1],
  ['foodtech', 1],
  ['semiconductors', 1],
  ['space', 1],
  ['quantum', 1],
  ['web3', 1],
];

const TAGS: Record<string, string[]> = {
  ai: ['llm', 'agents', 'computer-vision', 'nlp', 'mlops', 'inference'],
  fintech: ['payments', 'lending', 'banking-infra', 'treasury', 'fraud', 'wealth'],
  saas: ['b2b', 'workflow', 'collaboration', 'analytics', 'crm'],
  healthcare: ['clinics', 'diagnostics', 'care-coordination', 'telehealth'],
  devtools: ['ci-cd', 'observability', 'testing', 'open-source', 'apis'],
  cybersecurity: ['identity', 'cloud-security', 'email-security', 'compliance'],
  climate: ['carbon-accounting', 'batteries', 'grid', 'sustainability'],
  'data-infrastructure': ['databases', 'streaming', 'etl', 'warehouse'],
  marketplace: ['two-sided', 'b2b', 'services'],
  ecommerce: ['d2c', 'checkout', 'retail-tech'],
  biotech: ['drug-discovery', 'genomics', 'synthetic-biology'],
  robotics: ['warehouse-automation', 'drones', 'manufacturing'],
  edtech: ['k12', 'upskilling', 'language-learning'],
  logistics: ['freight', 'last-mile', 'supply-chain'],
  insurtech: ['embedded-insurance', 'claims'],
  proptech: ['real-estate', 'construction'],
  mobility: ['ev-charging', 'fleet'],
  consumer: ['social', 'subscriptions', 'mobile'],
  gaming: ['mobile-games', 'game-engines'],
  media: ['creator-economy', 'streaming-media'],
  energy: ['solar', 'storage', 'hydrogen'],
  'hr-tech': ['payroll', 'recruiting', 'benefits'],
  legaltech: ['contracts', 'e-discovery'],
  agtech: ['precision-farming', 'vertical-farming'],
  foodtech: ['alt-protein', 'delivery'],
  semiconductors: ['chips', 'photonics'],
  space: ['satellites', 'launch'],
  quantum: ['quantum-computing', 'quantum-sensing'],
  web3: ['wallets', 'defi'],
};

const PRODUCT: Record<string, string[]> = {
  ai: [
    'AI agents that automate back-office work',
    'a platform to deploy and monitor language models',
    'computer vision for quality inspection',
  ],
  fintech: [
    'payment infrastructure for platforms',
    'cash-flow lending for small businesses',
    'treasury automation for finance teams',
  ],
  saas: ['workflow software for operations teams', 'analytics for revenue teams', 'a CRM for service businesses'],
  healthcare: [
    'care coordination software for clinics',
    'remote diagnostics for primary care',
    'scheduling and billing for hospitals',
  ],
  devtools: [
    'observability for cloud applications',
    'test automation for developers',
    'an API platform for internal tools',
  ],
  cybersecurity: ['identity security for cloud teams', 'automated compliance evidence', 'email threat protection'],
  climate: [
    'carbon accounting for manufacturers',
    'software for grid-scale batteries',
    'emissions tracking for supply chains',
  ],
  'data-infrastructure': ['a streaming database', 'managed data pipelines', 'a lakehouse for product analytics'],
  marketplace: ['a marketplace for skilled trades', 'a B2B marketplace for industrial parts'],
  ecommerce: ['checkout tools for online stores', 'retail analytics for brands'],
  biotech: ['machine-learning drug discovery', 'genomic testing for rare diseases'],
  robotics: ['autonomous robots for warehouses', 'robotic arms for small factories'],
  edtech: ['upskilling programs for engineers', 'tutoring software for schools'],
  logistics: ['freight visibility software', 'last-mile delivery routing'],
  insurtech: ['embedded insurance for platforms', 'claims automation for insurers'],
  proptech: ['property management software', 'construction project tracking'],
  mobility: ['EV charging management', 'fleet electrification software'],
  consumer: ['a subscription app for households', 'a social app for hobby communities'],
  gaming: ['tools for mobile game studios', 'a multiplayer game backend'],
  media: ['monetisation tools for creators', 'a podcast analytics platform'],
  energy: ['solar asset management', 'hydrogen production monitoring'],
  'hr-tech': ['global payroll for remote teams', 'skills-based recruiting'],
  legaltech: ['contract review automation', 'e-discovery for law firms'],
  agtech: ['precision irrigation', 'crop analytics from satellite data'],
  foodtech: ['plant-based protein ingredients', 'kitchen software for restaurants'],
  semiconductors: ['photonic chips for data centers', 'chip design automation'],
  space: ['satellite imagery analytics', 'small-satellite launch services'],
  quantum: ['quantum software for chemistry', 'quantum sensors for navigation'],
  web3: ['self-custody wallets', 'compliance tooling for digital assets'],
};

const PLACES: Array<readonly [readonly [string, string], number]> = [
  [['US', 'San Francisco'], 18],
  [['US', 'New York'], 12],
  [['US', 'Boston'], 5],
  [['US', 'Austin'], 3],
  [['US', 'Seattle'], 3],
  [['US', 'Los Angeles'], 3],
  [['GB', 'London'], 10],
  [['DE', 'Berlin'], 6],
  [['DE', 'Munich'], 3],
  [['FR', 'Paris'], 6],
  [['IL', 'Tel Aviv'], 4],
  [['CA', 'Toronto'], 4],
  [['IN', 'Bengaluru'], 4],
  [['SG', 'Singapore'], 3],
  [['SE', 'Stockholm'], 2],
  [['NL', 'Amsterdam'], 2],
  [['ES', 'Barcelona'], 2],
  [['CH', 'Zurich'], 2],
  [['BR', 'São Paulo'], 2],
  [['JP', 'Tokyo'], 1],
  [['AU', 'Sydney'], 2],
  [['PT', 'Lisbon'], 1],
  [['EE', 'Tallinn'], 1],
  [['NG', 'Lagos'], 1],
];

const NAME_HEADS = [
  'Nova',
  'Quanta',
  'Helio',
  'Arbor',
  'Lumen',
  'Vector',
  'Cobalt',
  'Orbit',
  'Tidal',
  'Nimbus',
  'Ferro',
  'Kite',
  'Atlas',
  'Beacon',
  'Cinder',
  'Delta',
  'Ember',
  'Fathom',
  'Granite',
  'Harbor',
  'Iris',
  'Juniper',
  'Keystone',
  'Lattice',
  'Meridian',
  'Northstar',
  'Onyx',
  'Prism',
  'Quill',
  'Relay',
  'Sable',
  'Tessera',
  'Umbra',
  'Vela',
  'Willow',
  'Xenon',
  'Yarrow',
  'Zephyr',
  'Aster',
  'Bramble',
  'Cascade',
  'Drift',
  'Echo',
  'Flint',
  'Glyph',
  'Halo',
  'Ion',
  'Jasper',
  'Krypton',
  'Loom',
  'Mosaic',
  'Nexa',
  'Opal',
  'Pulse',
  'Quartz',
  'Ridge',
  'Solace',
  'Tandem',
  'Uplift',
  'Verdant',
  'Wren',
  'Axon',
  'Bolt',
  'Crest',
  'Dune',
  'Evergreen',
  'Forge',
];
const NAME_TAILS = [
  '',
  '',
  'Labs',
  'Systems',
  'Works',
  'Flow',
  'Logic',
  'Stack',
  'Metrics',
  'Cloud',
  'Data',
  'Ops',
  'Hub',
  'ly',
  'io',
  'Base',
  'Scale',
];
/** Name endings that fit a sector (used for about a third of the names). */
const SECTOR_TAILS: Record<string, string[]> = {
  ai: ['AI', 'Intelligence', 'Minds'],
  fintech: ['Pay', 'Capital', 'Ledger', 'Finance'],
  healthcare: ['Health', 'Care', 'Medical'],
  'digital-health': ['Health', 'Care'],
  biotech: ['Bio', 'Therapeutics', 'Genomics'],
  climate: ['Climate', 'Carbon', 'Energy'],
  energy: ['Energy', 'Power', 'Grid'],
  robotics: ['Robotics', 'Automation'],
  cybersecurity: ['Security', 'Shield', 'Guard'],
  logistics: ['Freight', 'Logistics'],
  insurtech: ['Insure', 'Cover'],
  edtech: ['Learn', 'Academy'],
  space: ['Space', 'Orbital'],
  mobility: ['Mobility', 'Motion'],
};
const TLDS: Array<readonly [string, number]> = [
  ['com', 50],
  ['io', 20],
  ['ai', 14],
  ['co', 8],
  ['dev', 4],
  ['tech', 4],
];

const INVESTORS = [
  'Northwind Ventures',
  'Blue Mesa Capital',
  'Foundry Lane Partners',
  'Granite Peak Ventures',
  'Harbor Light Capital',
  'Ironwood Partners',
  'Juniper Ridge Ventures',
  'Kestrel Capital',
  'Lakeside Ventures',
  'Meadowbrook Partners',
  'Nightingale Capital',
  'Oakhaven Ventures',
  'Pinecrest Capital',
  'Quarry Hill Partners',
  'Redwood Arc Ventures',
  'Silverline Capital',
  'Tall Grass Ventures',
  'Upland Partners',
  'Vantage Point Seed',
  'Westbridge Capital',
  'Yellowstone Ventures',
  'Zenith Growth',
  'Amberfield Capital',
  'Beacon Hill Seed',
  'Cedar Creek Ventures',
  'Driftwood Capital',
  'Eastgate Partners',
  'Firefly Ventures',
  'Goldcrest Growth',
  'Highline Seed Fund',
  'Innovate Angels',
  'Jetstream Capital',
  'Keel Ventures',
  'Lighthouse Growth',
  'Moonrise Capital',
  'Nordic Frontier Fund',
  'Orchard Street Ventures',
  'Polaris Seed',
  'Quay Capital',
  'Riverstone Ventures',
];

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
