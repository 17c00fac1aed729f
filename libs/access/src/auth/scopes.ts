import { type AppError, Errors } from '#kernel';

/** The spec's scope values (Authentication, Platform API, item 4), exactly. */
export const SCOPES = ['read', 'write', 'admin', 'agents:run', 'agents:configure', 'repositories:manage'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * D3: `admin` implies every scope. `write` implies `read` (a key that may change a resource may
 * also read it back); no other scope implies another.
 */
export function grants(granted: readonly string[], required: Scope): boolean {
  if (granted.includes('admin')) return true;
  if (granted.includes(required)) return true;
  return required === 'read' && granted.includes('write');
}

export function insufficientScope(required: Scope): AppError {
  return Errors.forbidden('INSUFFICIENT_SCOPE', `This action needs the "${required}" scope.`, {
    required_scope: required,
  });
}
