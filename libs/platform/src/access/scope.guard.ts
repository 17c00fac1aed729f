import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from './principal.js';
import { grants, insufficientScope, type Scope } from './scopes.js';

export const REQUIRED_SCOPE = 'svc:required-scope';

/** 403 INSUFFICIENT_SCOPE (D3) unless the principal's scopes grant the route's scope. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ method: string; principal?: Principal }>();
    const required =
      this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]) ??
      (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
    const principal = request.principal;
    if (!principal || !grants(principal.scopes, required)) throw insufficientScope(required);
    return true;
  }
}
