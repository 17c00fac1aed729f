import { z } from 'zod';
import { CSRF_FIELD } from '#http';
import { AppError, type ErrorKind } from '#kernel';

/** The refusals a person can fix on the form itself. */
const FORM_KINDS: ReadonlySet<ErrorKind> = new Set(['invalid', 'forbidden', 'conflict']);

/** A form's checkboxes: absent (none ticked), one value (a string) or several (an array). */
export const checkboxes = (max: number) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().max(100)).max(max));

/** Every form carries its token (CsrfGuard checked it before the controller runs). */
export const csrfInput = { [CSRF_FIELD]: z.string().max(500).optional() };

/** The `?cursor=` of a list page. */
export const listPageQuery = z.object({ cursor: z.string().min(1).max(500).optional() });

/**
 * A refusal a person can fix on the same form (the command's validation, a scope not held, a
 * limit reached) as sentences to show above it; anything else (404, 5xx) is not the form's
 * business and goes on to the error page.
 */
export function formErrors(error: unknown, labels: Record<string, string> = {}): string[] | undefined {
  if (!(error instanceof AppError) || !FORM_KINDS.has(error.kind)) return undefined;
  const details = error.extra.details;
  if (Array.isArray(details) && details.length) {
    return details.map((d: { path?: string; message?: string }) => {
      // `body.url`, `scopes.1`: the field is the first segment the form has a label for.
      const key = (d.path ?? '').split('.').find((segment) => segment in labels);
      const field = key ? labels[key] : d.path;
      return field ? `${field}: ${d.message ?? 'is not valid'}.` : `${d.message ?? 'Not valid'}.`;
    });
  }
  return [error.message];
}

/** A form's own validation failures (zod), worded like the commands'. */
export function zodErrors(error: z.ZodError, labels: Record<string, string>): string[] {
  return error.issues.map((issue) => {
    const field = labels[String(issue.path[0] ?? '')] ?? String(issue.path[0] ?? 'Form');
    return `${field}: ${issue.message}.`;
  });
}
