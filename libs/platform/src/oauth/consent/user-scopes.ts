import { SCOPES, type Scope } from '#access';
import type { UserRole } from '../../users/user.events.js';

/**
 * The scopes a user holds, as POST /v1/api-keys and the dashboard's key form decide them: an
 * admin holds all (admin implies every scope, D3); a member everything but `admin`.
 */
export function scopesHeldBy(role: UserRole): Scope[] {
  return role === 'admin' ? [...SCOPES] : SCOPES.filter((s) => s !== 'admin');
}
