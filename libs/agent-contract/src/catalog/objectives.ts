/**
 * Purchase objectives (spec "Objectives"): the value of the `objective` field and query parameter.
 * Each objective has the pack it is best served by; responses also name the recommended
 * objective `starter_proof` (the pack_29 proof run), accepted as an alias of `starter`.
 */
import type { PackId } from './packs.js';

export const OBJECTIVES = ['starter', 'growth', 'operator_pilot', 'enterprise'] as const;
export type Objective = (typeof OBJECTIVES)[number];

export const RECOMMENDED_OBJECTIVE = 'starter_proof';

/**
 * The operator pilot's length (spec "Limits", item 7). A rule deciders compute the pilot's end
 * with, so it stays code; catalogue texts name it as {operator_pilot_days} (services.ts).
 */
export const OPERATOR_PILOT_DAYS = 14;

/** Values accepted where an objective is read: the four objectives and the recommended one. */
export const OBJECTIVE_VALUES = [...OBJECTIVES, RECOMMENDED_OBJECTIVE] as const;
export type ObjectiveValue = (typeof OBJECTIVE_VALUES)[number];

/** The pack each objective is preferred for (`preferred_for_objective` in purchase guidance). */
export const OBJECTIVE_PACK: Readonly<Record<Objective, PackId>> = Object.freeze({
  starter: 'pack_29',
  growth: 'pack_499',
  operator_pilot: 'pack_2499',
  enterprise: 'pack_10000',
});

export function isObjective(value: unknown): value is Objective {
  return typeof value === 'string' && (OBJECTIVES as readonly string[]).includes(value);
}

/** Normalises an objective value (`starter_proof` → `starter`); undefined for unknown values. */
export function toObjective(value: string | undefined | null): Objective | undefined {
  if (value === RECOMMENDED_OBJECTIVE) return 'starter';
  return isObjective(value) ? value : undefined;
}

/** The pack an objective is preferred for; the starter pack when no (known) objective is given. */
export function packForObjective(value: string | undefined | null): PackId {
  return OBJECTIVE_PACK[toObjective(value) ?? 'starter'];
}

/** The objective a pack's catalogue checkout link carries (pack_99 is a larger starter pack). */
export const PACK_OBJECTIVE: Readonly<Record<PackId, Objective>> = Object.freeze({
  pack_29: 'starter',
  pack_99: 'starter',
  pack_499: 'growth',
  pack_2499: 'operator_pilot',
  pack_10000: 'enterprise',
});
