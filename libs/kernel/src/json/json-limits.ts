/**
 * Limits on free-form JSON a client may send (OWASP API4): stores refuse deep nesting (SQLite's
 * JSON functions past 1000 levels, MongoDB past 100), so a deeper value accepted once would be
 * an event no read model can hold. Inputs are checked against these before they become events.
 */
export const FREE_FORM_JSON_LIMITS = { maxDepth: 20, maxKeys: 1000 } as const;

export interface JsonLimits {
  /** Levels of objects and arrays; a scalar is depth 0, `{}` and `[]` depth 1. */
  maxDepth: number;
  /** Object keys in the whole value, all levels together. */
  maxKeys: number;
}

/** Why the value breaks the limits, or undefined. Iterative: a hostile depth cannot overflow the stack. */
export function jsonLimitViolation(value: unknown, limits: JsonLimits = FREE_FORM_JSON_LIMITS): string | undefined {
  let keys = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limits.maxDepth) return `nested deeper than ${limits.maxDepth} levels`;
    const children = Array.isArray(v) ? v : Object.values(v);
    if (!Array.isArray(v)) {
      keys += children.length;
      if (keys > limits.maxKeys) return `more than ${limits.maxKeys} keys in all`;
    }
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
