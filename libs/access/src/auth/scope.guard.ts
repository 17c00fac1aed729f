import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from './principal.js';
import { grants, insufficientScope, type Scope } from './scopes.js';

export const REQUIRED_SCOPE = 'svc:required-scope';

/**
 * D3, checked by PlatformAuthGuard after the rate limit (so a 403 carries the rate-limit
 * headers): 403 INSUFFICIENT_SCOPE unless the principal's scopes grant the route's scope; a route
 * without `@RequireScope` needs `read` for GET and HEAD, `write` for anything else. The declared
 * scope is looked up once per route (handler, then controller), not per request.
 */
export class ScopeCheck {
  private readonly declared = new WeakMap<object, Scope | null>();

  constructor(private readonly reflector: Reflector) {}

  assert(context: ExecutionContext, request: { method?: string }, principal: Principal): void {
    const required =
      this.declaredScope(context) ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
    if (!grants(principal.scopes, required)) throw insufficientScope(required);
  }

  private declaredScope(context: ExecutionContext): Scope | null {
    const handler = context.getHandler();
    let scope = this.declared.get(handler);
    if (scope === undefined) {
      scope =
        this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, [handler, context.getClass()]) ?? null;
      this.declared.set(handler, scope);
    }
    return scope;
  }
}
