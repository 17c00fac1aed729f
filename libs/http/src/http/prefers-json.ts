/**
 * Whether the client asks for JSON rather than `over`, the answer's other form (an HTML page for
 * a browser, an event stream for MCP), told by which Accept lists first: agents and browsers put
 * what they want first, and q-values are not weighed. A JSON media type is `application/json` or
 * any `+json` one. `otherwise` answers an Accept that names neither (or is absent).
 */
export function prefersJson(
  accept: string | string[] | undefined,
  { over, otherwise = false }: { over: string; otherwise?: boolean },
): boolean {
  const ranges = (Array.isArray(accept) ? accept.join(',') : (accept ?? ''))
    .toLowerCase()
    .split(',')
    .map((range) => range.split(';', 1)[0]!.trim());
  const json = ranges.findIndex((type) => type === 'application/json' || type.endsWith('+json'));
  const other = ranges.indexOf(over);
  if (json < 0) return other < 0 && otherwise;
  return other < 0 || json < other;
}
