import type { CanActivate, ExecutionContext, INestApplicationContext } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { z } from 'zod';
import { Errors, type ErrorDetail } from '#kernel';
import { issuesToDetails, type RequestPart } from './zod-validation.js';

type Schemas = Partial<Record<RequestPart, z.ZodType | undefined>>;

const PARTS = ['params', 'query', 'body'] as const;

/**
 * The request validation of one `@Operation` (DESIGN §4), built once when the route is declared:
 * parses params, query and body with the operation's schemas, replaces them by the parsed
 * values, and answers 400 VALIDATION_FAILED with every problem of the request at once.
 *
 * A guard, not an interceptor: Nest runs a route's interceptors through an rxjs pipeline per
 * request, which cost more than the validation itself. It runs after the route's other guards
 * (authentication, rate limit, scope: `placeValidationGuardsLast`), and before every interceptor
 * (so a metered route never holds credits for an invalid request).
 */
export class OperationValidationGuard implements CanActivate {
  private constructor(private readonly parts: ReadonlyArray<readonly [RequestPart, z.ZodType]>) {}

  /** The guard for these schemas; undefined when there is nothing to validate. */
  static for(schemas: Schemas): OperationValidationGuard | undefined {
    const parts = PARTS.flatMap((part) => (schemas[part] ? [[part, schemas[part]] as const] : []));
    return parts.length > 0 ? new OperationValidationGuard(parts) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() === 'http') this.validate(context.switchToHttp().getRequest<Record<RequestPart, unknown>>());
    return true;
  }

  /** Validates `request` in place; throws the 400 listing every problem. */
  validate(request: Record<RequestPart, unknown>): void {
    let details: ErrorDetail[] | undefined;
    for (const [part, schema] of this.parts) {
      const result = schema.safeParse(request[part] ?? (part === 'body' ? undefined : {}));
      if (result.success) request[part] = result.data;
      else (details ??= []).push(...issuesToDetails(result.error.issues, part));
    }
    if (details) throw Errors.validation(details);
  }
}

/**
 * Moves each route's OperationValidationGuard after the route's other guards. Method decorators
 * apply bottom-up, so `@AgentAuth()` written above `@Operation(...)` would otherwise put the auth
 * guard after the validation and a bad request without a key would get 400 instead of 401.
 * Call once after the app is created and before it is initialised (routes read their guards at
 * init). Class-level guards always run before method-level ones.
 *
 * A guard class with a static `runsAfterValidation = true` (one that commits something, like a
 * hold on credits) goes after the validation instead: invalid input is refused before it.
 */
export function placeValidationGuardsLast(app: INestApplicationContext): void {
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const proto = (wrapper.metatype as { prototype?: object } | undefined)?.prototype;
      if (!proto) continue;
      for (const name of scanner.getAllMethodNames(proto)) {
        const handler = (proto as Record<string, unknown>)[name];
        if (typeof handler !== 'function') continue;
        const guards = Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined;
        if (!guards || guards.length < 2) continue;
        const validation = guards.filter((g) => g instanceof OperationValidationGuard);
        if (validation.length === 0) continue;
        const after = guards.filter(runsAfterValidation);
        const before = guards.filter((g) => !(g instanceof OperationValidationGuard) && !runsAfterValidation(g));
        Reflect.defineMetadata(GUARDS_METADATA, [...before, ...validation, ...after], handler);
      }
    }
  }
}

function runsAfterValidation(guard: unknown): boolean {
  const type = (typeof guard === 'function' ? guard : (guard as { constructor?: unknown } | null)?.constructor) as
    { runsAfterValidation?: boolean } | undefined;
  return type?.runsAfterValidation === true;
}
