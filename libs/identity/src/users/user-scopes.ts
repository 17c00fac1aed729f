import { grants, type Scope, SCOPES } from '#access';
import type { UserRole } from './user.events.js';

/**
 * The scopes a user holds (ADR 0069): an `admin` user holds `admin`, which implies every scope
 * (D3); a `member` holds every scope but `admin`, so keys, webhooks and settings (D3's `admin`)
 * stay with the admins. What a user may grant a key, or do on a dashboard page, is decided from
 * these with the API's own `grants`, never by a second set of rules.
 */
export function scopesOfRole(role: UserRole): Scope[] {
  return role === 'admin' ? ['admin'] : SCOPES.filter((s) => s !== 'admin');
}

/** Whether a user of this role holds `scope` (the API's rule: admin implies all, write implies read). */
export function roleGrants(role: UserRole, scope: Scope): boolean {
  return grants(scopesOfRole(role), scope);
}
