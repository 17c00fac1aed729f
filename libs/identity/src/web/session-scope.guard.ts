import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Scope } from '#access';
import { AppError } from '#kernel';
import { roleGrants } from '../users/user-scopes.js';
import { sessionOf } from './signed-in.guard.js';

const PAGE_SCOPE = 'svc:page-scope';

/** A page (or form) that needs a scope of its signed-in user, as its API twin needs it of a key. */
export function pageNeedsScope(scope: Scope): AppError {
  return new AppError(
    'forbidden',
    'INSUFFICIENT_SCOPE',
    scope === 'admin'
      ? "Only the account's admins can do this. Ask one of them."
      : `This needs the "${scope}" scope, which your role does not hold.`,
    { required_scope: scope },
  );
}

/**
 * The page's twin of `@RequireScope`: the signed-in user's role must hold `scope` (ADR 0069:
 * an admin holds all, a member all but `admin`). On a route, not a controller class: method
 * guards run after the class's SignedInGuard, which finds the session.
 */
@Injectable()
export class SessionScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(PAGE_SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!scope) return true;
    const session = sessionOf(context.switchToHttp().getRequest<object>());
    if (!roleGrants(session.role, scope)) throw pageNeedsScope(scope);
    return true;
  }
}

export function RequirePageScope(scope: Scope): MethodDecorator {
  return applyDecorators(SetMetadata(PAGE_SCOPE, scope), UseGuards(SessionScopeGuard));
}
