/**
 * The fixed credit-pack catalogue (spec "Credit packs" and "Pack entry in the catalog response").
 * Amounts in integer cents; the catalogue endpoint converts to US dollars at the edge. The ids are
 * code (types and events name them); the packs themselves are data (packs.data.yaml), checked
 * by the schema below when this module loads.
 */
import { z } from 'zod';
import { loadDataFile } from '#kernel';

export const PACK_IDS = ['pack_29', 'pack_99', 'pack_499', 'pack_2499', 'pack_10000'] as const;
export type PackId = (typeof PACK_IDS)[number];

/** Capability tags of the spec ("values seen"). */
export const PACK_CAPABILITIES = [
  'entry-access',
  'quickstart',
  'proof-workloads',
  'production-usage',
  'autopay',
  'continuous-discovery',
] as const;
export type PackCapability = (typeof PACK_CAPABILITIES)[number];

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

/** The shape of packs.data.yaml (exported for its spec). */
export const packsFileSchema = z
  .strictObject({
    packs: z.array(
      z.strictObject({
        pack_id: z.enum(PACK_IDS),
        name: z.string().min(1),
        amount_cents: z.int().positive(),
        credits_cents: z.int().positive(),
        // Key order here is the order the catalogue publishes the flags in.
        recommendation: z.strictObject({
          fastest_revenue: z.boolean(),
          twenty_four_seven: z.boolean(),
          operator_pilot: z.boolean(),
          enterprise: z.boolean(),
        }),
        capabilities: z.array(z.enum(PACK_CAPABILITIES)).min(1),
        workspace: z.enum(['pilot', 'enterprise']).optional(),
      }),
    ),
  })
  .superRefine(({ packs }, ctx) => {
    // Every pack id once, in PACK_IDS order: "the next larger pack" and the catalogue's order rely on it.
    const ids = packs.map((p) => p.pack_id).join(', ');
    if (ids !== PACK_IDS.join(', '))
      ctx.addIssue({
        code: 'custom',
        path: ['packs'],
        message: `packs must be ${PACK_IDS.join(', ')} in that order, got ${ids}`,
      });
    packs.forEach((p, i) => {
      if (p.credits_cents < p.amount_cents)
        ctx.addIssue({ code: 'custom', path: ['packs', i, 'credits_cents'], message: 'grants less than it costs' });
    });
  });

export const CREDIT_PACKS: readonly CreditPack[] = Object.freeze(
  loadDataFile(import.meta.url, './packs.data.yaml', packsFileSchema).packs.map((p): CreditPack => Object.freeze(p)),
);

export function isPackId(value: unknown): value is PackId {
  return typeof value === 'string' && (PACK_IDS as readonly string[]).includes(value);
}

/** The pack with this id, or undefined for anything else (callers answer 400/404 themselves). */
export function findPack(id: string | undefined | null): CreditPack | undefined {
  return CREDIT_PACKS.find((p) => p.pack_id === id);
}
