import type { z } from 'zod';
import { AppError, Errors, type ErrorDetail } from '#kernel';

export type RequestPart = 'body' | 'query' | 'params';

function joinPath(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  return [prefix, ...path.map((p) => String(p))].filter((p) => p !== '').join('.');
}

/** Zod issues as D5 `details`: one entry per problem, unknown fields one each. */
export function issuesToDetails(issues: ReadonlyArray<z.core.$ZodIssue>, prefix = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        details.push({ path: joinPath(prefix, [...issue.path, key]), message: 'unknown field' });
    } else {
      details.push({ path: joinPath(prefix, issue.path), message: issue.message });
    }
  }
  return details;
}

/**
 * Parses `value` with `schema`; throws the 400 VALIDATION_FAILED AppError otherwise.
 * `prefix` names where the value came from (`body`, `query`, `params`; '' for MCP tool input).
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw Errors.validation(issuesToDetails(result.error.issues, prefix));
}

export function isValidationError(e: unknown): e is AppError {
  return e instanceof AppError && e.code === 'VALIDATION_FAILED';
}
