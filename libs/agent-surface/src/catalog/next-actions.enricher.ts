import type { AppConfig } from '#kernel';
import { type OperationRef, type ProblemEnricher, publicBaseUrl, type RequestOrigin } from '#http';
import { AGENT_API_PREFIX, nextActionsFor, OPERATION_DOCS_STATUSES } from '#agent-contract';

export interface AgentNextActionsOptions {
  /** For the base URL of the links: SVC_PUBLIC_URL, else the request's allowed Host. */
  config: Pick<AppConfig, 'publicUrl'> & Partial<Pick<AppConfig, 'allowedHosts' | 'port'>>;
  /** The documented operation of a request (OpenApiService.operationAt): a 400 links its documentation. */
  operationAt?: (method: string, path: string) => OperationRef | undefined;
}

/**
 * The problem enricher of the HTTP error filter for the agent surface: every 4xx under /api/v1
 * gets `next_actions` (nextActionsFor). An error that brought its own keeps them, with relative
 * URLs made absolute. Runs on errors only.
 */
export function agentNextActionsEnricher(options: AgentNextActionsOptions): ProblemEnricher {
  return (problem, context) => {
    const { status, path } = context;
    if (status < 400 || status > 499) return;
    if (path !== AGENT_API_PREFIX && !path.startsWith(`${AGENT_API_PREFIX}/`)) return;
    const baseUrl = publicBaseUrl(context.request as RequestOrigin | undefined, options.config);
    if (Array.isArray(problem.next_actions)) {
      problem.next_actions = problem.next_actions.map((action: unknown) => absolute(action, baseUrl));
      return;
    }
    const query = context.url.indexOf('?');
    problem.next_actions = nextActionsFor({
      status,
      code: typeof problem.code === 'string' ? problem.code : '',
      method: context.method.toUpperCase(),
      path,
      ...(query >= 0 && query < context.url.length - 1 ? { query: context.url.slice(query + 1) } : {}),
      baseUrl,
      ...retryAfter(context.headers, problem),
      ...operation(options, context.method, path, status),
    });
  };
}

function absolute(action: unknown, baseUrl: string): unknown {
  const url = (action as { url?: unknown } | null)?.url;
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return action;
  return { ...(action as object), url: `${baseUrl}${url}` };
}

/** Seconds from Retry-After (the service sends seconds), else the body's retry_after. */
function retryAfter(
  headers: Readonly<Record<string, string>>,
  problem: Record<string, unknown>,
): { retryAfterSeconds?: number } {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'retry-after') continue;
    const seconds = Number(value);
    if (Number.isInteger(seconds) && seconds >= 0) return { retryAfterSeconds: seconds };
  }
  const body = problem.retry_after;
  return typeof body === 'number' && Number.isInteger(body) && body >= 0 ? { retryAfterSeconds: body } : {};
}

function operation(
  options: AgentNextActionsOptions,
  method: string,
  path: string,
  status: number,
): { operation?: OperationRef } {
  // Only the statuses that link the operation's documentation look it up.
  if (!options.operationAt || !OPERATION_DOCS_STATUSES.has(status)) return {};
  const found = options.operationAt(method, path);
  return found ? { operation: found } : {};
}
