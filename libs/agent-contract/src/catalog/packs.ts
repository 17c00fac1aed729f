/**
 * The fixed credit-pack catalogue (spec "Credit packs" and "Pack entry in the catalog response").
 * Amounts in integer cents; the catalogue endpoint converts to US dollars at the edge.
 */

export const PACK_IDS = ['pack_29', 'pack_99', 'pack_499', 'pack_2499', 'pack_10000'] as const;
export type PackId = (typeof PACK_IDS)[number];

/** Capability tags of the spec ("values seen"). */
export type PackCapability =
  'entry-access' | 'quickstart' | 'proof-workloads' | 'production-usage' | 'autopay' | 'continuous-discovery';

export interface PackRecommendation {
  fastest_revenue: boolean;
  twenty_four_seven: boolean;
  operator_pilot: boolean;
  enterprise: boolean;
}

/**
 * What buying a pack opens besides credits (ADR 0078): `pilot`, the operator pilot (a tenant
 * workspace for OPERATOR_PILOT_DAYS, read-only after); `enterprise`, the tenant workspace for good.
 */
export type WorkspaceEntitlement = 'pilot' | 'enterprise';

export interface CreditPack {
  pack_id: PackId;
  name: string;
  /** What the buyer pays, in cents. */
  amount_cents: number;
  /** Credits granted, in cents (pack_99 and larger grant more than they cost). */
  credits_cents: number;
  recommendation: Readonly<PackRecommendation>;
  capabilities: readonly PackCapability[];
  /** The workspace the purchase provisions for the paying account; absent: credits only. */
  workspace?: WorkspaceEntitlement;
}

/** The pack a new key's starter checkout sells (D15: signup and pay). */
export const STARTER_PACK_ID: PackId = 'pack_29';

const ENTRY: readonly PackCapability[] = ['entry-access', 'quickstart', 'proof-workloads'];
const none: PackRecommendation = {
  fastest_revenue: false,
  twenty_four_seven: false,
  operator_pilot: false,
  enterprise: false,
};

export const CREDIT_PACKS: readonly CreditPack[] = Object.freeze(
  (
    [
      {
        pack_id: 'pack_29',
        name: 'Agent Proof Pack 29',
        amount_cents: 2_900,
        credits_cents: 2_900,
        recommendation: { ...none, fastest_revenue: true },
        capabilities: ENTRY,
      },
      {
        pack_id: 'pack_99',
        name: 'Agent Starter Pack 99',
        amount_cents: 9_900,
        credits_cents: 11_000,
        recommendation: { ...none },
        capabilities: ENTRY,
      },
      {
        pack_id: 'pack_499',
        name: 'Agent Continuous Pack 499',
        amount_cents: 49_900,
        credits_cents: 57_500,
        recommendation: { ...none, twenty_four_seven: true },
        capabilities: ENTRY,
      },
      {
        pack_id: 'pack_2499',
        name: 'Agent Scale Pack 2499',
        amount_cents: 249_900,
        credits_cents: 300_000,
        recommendation: { ...none, operator_pilot: true },
        capabilities: ENTRY,
        workspace: 'pilot',
      },
      {
        pack_id: 'pack_10000',
        name: 'Agent Enterprise Commit 10000',
        amount_cents: 1_000_000,
        credits_cents: 1_250_000,
        recommendation: { ...none, enterprise: true },
        capabilities: ['production-usage', 'autopay', 'continuous-discovery'],
        workspace: 'enterprise',
      },
    ] satisfies CreditPack[]
  ).map((p) => Object.freeze(p)),
);

export function isPackId(value: unknown): value is PackId {
  return typeof value === 'string' && (PACK_IDS as readonly string[]).includes(value);
}

/** The pack with this id, or undefined for anything else (callers answer 400/404 themselves). */
export function findPack(id: string | undefined | null): CreditPack | undefined {
  return CREDIT_PACKS.find((p) => p.pack_id === id);
}
