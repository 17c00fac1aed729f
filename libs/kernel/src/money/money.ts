/**
 * Money is integer cents everywhere (DESIGN §4); US-dollar numbers appear only at the HTTP edge.
 * These two helpers are that edge.
 */
export function centsToUsd(cents: number): number {
  return cents / 100;
}

/** Whole cents from a US-dollar number; rounds away float noise (3.5 → 350, 0.1 + 0.2 → 30). */
export function usdToCents(usd: number): number {
  return Math.round(usd * 100);
}
