import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import type { Scope } from './scopes.js';
import type { Principal } from './principal.js';
import { PlatformAuthGuard } from './platform-auth.guard.js';
import { REQUIRED_SCOPE } from './scope.guard.js';

/**
 * The scope a route needs (D3). Without it, PlatformAuthGuard applies D3's default: `read` for GET and
 * HEAD, `write` for anything else. `admin` implies every scope.
 */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);

/**
 * Platform authentication for a controller or route: bearer credential (401), the account's
 * rate limit (429, headers on every answer from here on), then the scope (403), in that order.
 */
export const PlatformAuth = () => applyDecorators(UseGuards(PlatformAuthGuard));

/** The request's Principal (set by PlatformAuthGuard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<{ principal?: Principal }>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without PlatformAuth');
  return principal;
});
