/**
 * The text of a tool result. Many MCP hosts show the model only a result's text content, so a
 * failure's text carries what the model needs to act: the status and code, each
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

/** The protocol version that brought structuredContent (and the MCP-Protocol-Version header). */
const STRUCTURED_CONTENT_SINCE = '2025-06-18';

/**
 * Whether the client reads structuredContent: it sent an MCP-Protocol-Version of 2025-06-18 or
 * later. Without the header the Streamable HTTP transport says to assume 2025-03-26, which had none.
 */
export function readsStructuredContent(version: string | string[] | undefined): boolean {
  return typeof version === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= STRUCTURED_CONTENT_SINCE;
}

/** A page's items listed in its text, one line each, at most (a page holds at most 100). */
const LINES = 100;
/** An item's fields that name it, in this order, when they are short values. */
const NAMING_FIELDS = [
  'rank',
  'id',
  'key',
  'name',
  'title',
  'domain',
  'score',
  'stage',
  'sectors',
  'owner',
  'status',
  'state',
  'type',
  'due_at',
  'url',
];

/**
 * The text of a successful result for a client that reads structuredContent (ADR 0084): a page
 * (`{data: [...], has_more, next_cursor}`) is summed up, a line naming each item and how to get
 * the next page, so the data travels once; a single record (a profile, a memo, a score) is its
 * JSON, since it is itself what was asked for. Clients of older versions get the JSON of either.
 */
export function resultText(data: Record<string, unknown>, structured: boolean): string {
  const items = data.data;
  if (!structured || !Array.isArray(items)) return JSON.stringify(data);
  const lines = [
    `${items.length} result${items.length === 1 ? '' : 's'}${data.has_more ? '; more: call again with cursor = next_cursor' : ''}. Every field is in structuredContent.`,
  ];
  if (typeof data.next_cursor === 'string') lines.push(`next_cursor: ${data.next_cursor}`);
  // The items of a page share one shape: the naming fields are found on the first and read on each.
  const fields = namingFields(items[0]);
  for (let i = 0; i < items.length && i < LINES; i++) lines.push(`${i + 1}. ${naming(items[i], fields)}`);
  return lines.join('\n');
}

type Field = readonly [name: string, nested: boolean];

/** The naming fields an item has, its own or its nested company's (a discovery item's). */
function namingFields(item: unknown): Field[] {
  if (typeof item !== 'object' || item === null) return [];
  const record = item as Record<string, unknown>;
  const company = typeof record.company === 'object' && record.company !== null ? record.company : {};
  const fields: Field[] = [];
  for (const name of NAMING_FIELDS)
    if (name in record) fields.push([name, false]);
    else if (name in company) fields.push([name, true]);
  return fields;
}

/** `id=… name=… score=…`: the short values of the item's naming fields. */
function naming(item: unknown, fields: Field[]): string {
  if (typeof item !== 'object' || item === null) return JSON.stringify(item);
  const record = item as Record<string, unknown>;
  const company = record.company as Record<string, unknown> | undefined;
  let line = '';
  for (const [name, nested] of fields) {
    const value = nested ? company?.[name] : record[name];
    if (typeof value === 'string' || typeof value === 'number') line += ` ${name}=${value}`;
    else if (Array.isArray(value) && value.length) line += ` ${name}=${value.join(',')}`;
  }
  return line.slice(1);
}
