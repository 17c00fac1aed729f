/**
 * The text of a tool result. Many MCP hosts show the model only a result's text content, so a
 * failure's text carries what the model needs to act (issue 29 item 2): the status and code, each
 * field error under the tool's own argument names, and the one next call with its URL.
 */
import type { PublishedTool } from '../tools/published-tools.js';

interface Problem {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  details?: unknown;
  next_actions?: unknown;
  retry_after?: unknown;
}

interface Action {
  action?: unknown;
  tool?: unknown;
  method?: unknown;
  url?: unknown;
  description?: unknown;
}

/** `Error 400 VALIDATION_FAILED: …`, a line per field error, the next call, and "Not charged." */
export function problemText(body: Problem, tool: PublishedTool | null): string {
  const lines = [`Error ${String(body.status)} ${String(body.code)}: ${String(body.message)}`];
  if (Array.isArray(body.details))
    for (const detail of body.details as Array<{ path?: unknown; message?: unknown }>)
      lines.push(`- ${argumentName(String(detail.path ?? ''), tool)}: ${String(detail.message)}`);
  if (typeof body.retry_after === 'number') lines.push(`Retry after ${body.retry_after} s.`);
  const next = Array.isArray(body.next_actions) ? (body.next_actions[0] as Action | undefined) : undefined;
  if (next) lines.push(`Next: ${nextCall(next)}`);
  lines.push('Not charged.');
  return lines.join('\n');
}

function nextCall(action: Action): string {
  const what = action.tool ? `call tool ${String(action.tool)}` : `${String(action.method)} ${String(action.url)}`;
  return action.description ? `${what} (${String(action.description)})` : what;
}

/** REST's `query.sector` / `params.id` as the tool names it (`sector`, `company_id`). */
function argumentName(path: string, tool: PublishedTool | null): string {
  if (!tool) return path;
  for (const [arg, [part, field]] of tool.fields) {
    const prefix = `${part.part}.${field}`;
    if (path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`))
      return `${arg}${path.slice(prefix.length)}`;
  }
  return path;
}
