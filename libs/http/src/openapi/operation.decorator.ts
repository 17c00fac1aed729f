import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import type { z } from 'zod';
import { OperationValidationGuard } from '../http/operation-validation.guard.js';
import { OPERATION_METADATA, type OperationSpec } from './operation.metadata.js';

/** Applies `.strict()` to a plain z.object so unknown top-level fields are rejected. */
function strictTop<S extends z.ZodType | undefined>(schema: S): S {
  const def = (schema as { _zod?: { def?: { type?: string; catchall?: unknown } } } | undefined)?._zod?.def;
  if (def?.type === 'object' && def.catchall === undefined) {
    return (schema as unknown as z.ZodObject).strict() as unknown as S;
  }
  return schema;
}

/**
 * One schema per operation (DESIGN §4): validates the request (400 VALIDATION_FAILED with
 * `details`), replaces body/query/params by the parsed values, and documents the operation in
 * the OpenAPI document. Nested objects should be `z.strictObject` so they reject unknown fields
 * too (the OpenAPI test flags any that is not). The validation is a guard made here, once per
 * route (none when the operation has no schemas); it runs after the route's other guards.
 */
export function Operation(spec: OperationSpec): MethodDecorator {
  const normalised: OperationSpec = {
    ...spec,
    body: strictTop(spec.body),
    query: strictTop(spec.query),
    params: spec.params,
  };
  const guard = OperationValidationGuard.for(normalised);
  return applyDecorators(SetMetadata(OPERATION_METADATA, normalised), ...(guard ? [UseGuards(guard)] : []));
}
