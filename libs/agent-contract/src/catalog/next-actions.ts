/**
 * What an agent can do after a 4xx of the agent surface: every problem+json
 * 4xx under /api/v1 carries `next_actions`, requests to make with absolute URLs. The rules are
 * one pure function of the error and the request, so the HTTP filter (next-actions.enricher.ts)
 * and the MCP tool errors answer the same.
 */
import { AGENT_API_PREFIX, PATHS } from '../links.js';

export interface NextAction {
  /** Machine word: get_api_key, read_operation_docs, retry_after, ... */
  action: string;
  method: string;
  /** Absolute. */
  url: string;
  description: string;
  pack_id?: string;
  /** The operation a documentation link points at. */
  operation_id?: string;
  /** Wait this long before making the request. */
  retry_after_seconds?: number;
}

export interface NextActionsInput {
  status: number;
  code: string;
  /** The failed request. */
  method: string;
  /** Its path, without the query. */
  path: string;
  /** Its query string without `?` (a retry repeats it). */
  query?: string;
  /** The public base URL, no trailing slash (publicBaseUrl). */
  baseUrl: string;
  /** From Retry-After (429, 409 IDEMPOTENCY_KEY_IN_PROGRESS). */
  retryAfterSeconds?: number;
  /** The documented operation the request went to, when known: a 400 links its documentation. */
  operation?: { operationId: string; method: string; path: string };
}

const A = AGENT_API_PREFIX;
const LINKS = {
  discovery: `${A}/discovery/top`,
  errors: `${A}/agents/errors`,
  leads: `${A}/agents/leads`,
  registryPack: `${A}/agents/registry-pack`,
  workspaceCompanies: `${A}/workspace/companies`,
  workspaceDeals: `${A}/workspace/deals`,
  workspaceSubscriptions: `${A}/workspace/webhooks/subscriptions`,
  workspaceDeliveries: `${A}/workspace/webhooks/deliveries`,
  workspaceEvents: `${A}/workspace/events`,
  openapi: '/docs/api/openapi.v1.yaml',
} as const;

/** The statuses whose first action is the documentation of the operation (the request was wrong). */
export const OPERATION_DOCS_STATUSES: ReadonlySet<number> = new Set([400, 405, 413, 415, 422]);

/** The next actions of an error; empty outside 4xx. */
export function nextActionsFor(input: NextActionsInput): NextAction[] {
  const { status } = input;
  if (status < 400 || status > 499) return [];
  switch (status) {
    case 401:
      return getAKey(input);
    case 403:
      return forbidden(input);
    case 404:
      return notFound(input);
    case 409:
    case 412:
      return conflict(input);
    case 429:
      return [retryAfter(input)];
    default:
      if (OPERATION_DOCS_STATUSES.has(status)) return [operationDocs(input), errorEntry(input)];
      return [errorEntry(input), checkStatus(input)];
  }
}

/** The 401s of a key that was sent: it may be mistyped, revoked or rotated, not lost. */
const KEY_SENT_CODES: ReadonlySet<string> = new Set(['INVALID_KEY', 'REVOKED_KEY', 'KEY_WRONG_ENVIRONMENT']);

/**
 * A key sent that does not work is most often a mistyped, revoked or rotated key of an account
 * that exists: the ways back to that account come first, a new account last (only
 * "open a new account" was offered, and each retry of it opened another).
 */
function getAKey({ baseUrl, code }: NextActionsInput): NextAction[] {
  const newAccount: NextAction[] = [
    {
      action: 'get_api_key',
      method: 'POST',
      url: `${baseUrl}${PATHS.pay}`,
      description:
        'Open an account: a new API key and a hosted checkout for credits in one call (no body needed). Send an Idempotency-Key header so a retry returns the same account instead of opening another. Send the key as x-api-key.',
    },
    {
      action: 'sign_up',
      method: 'POST',
      url: `${baseUrl}${PATHS.signup}`,
      description:
        'Sign up: a new API key with a starter checkout (Idempotency-Key honoured as for pay). Send the key as x-api-key.',
    },
  ];
  if (!KEY_SENT_CODES.has(code)) return newAccount;
  return [
    {
      action: 'check_key_status',
      method: 'GET',
      url: `${baseUrl}${PATHS.status}`,
      description:
        'Check the key you hold: send it exactly as it was issued (svc_test_… or svc_live_…) in x-api-key; a working key answers its account, balance and keys.',
    },
    {
      action: 'rotate_key',
      method: 'POST',
      url: `${baseUrl}${PATHS.keys}`,
      description:
        'With another working key of the same account in x-api-key: create a new key for that account (rotation) and keep its credits; GET the same URL lists the keys.',
    },
    ...newAccount.map((action) => ({
      ...action,
      description: `Only with no working key of any account: ${action.description.charAt(0).toLowerCase()}${action.description.slice(1)}`,
    })),
  ];
}

function forbidden(input: NextActionsInput): NextAction[] {
  const { baseUrl } = input;
  const upgrade: NextAction = {
    action: 'view_enterprise_upgrade',
    method: 'GET',
    url: `${baseUrl}${LINKS.leads}`,
    description: 'What an enterprise workspace includes and how to ask for one (POST to the same URL).',
  };
  if (input.code === 'TENANT_KEY_REQUIRED')
    return [
      upgrade,
      {
        action: 'submit_lead',
        method: 'POST',
        url: `${baseUrl}${LINKS.leads}`,
        description: 'Ask for an enterprise workspace; an operator creates the tenant and its key.',
      },
    ];
  return [checkStatus(input), upgrade];
}

function notFound(input: NextActionsInput): NextAction[] {
  const { baseUrl, code, path } = input;
  if (code === 'ROUTE_NOT_FOUND')
    return [...discoverAndCatalog(baseUrl), openapi(baseUrl, 'Every operation of the service, with its schemas.')];
  const workspaceList = workspaceListFor(path);
  if (workspaceList) return [workspaceList(baseUrl)];
  if (code === 'KEY_NOT_FOUND' || path.startsWith(`${PATHS.keys}/`)) return [listKeys(baseUrl)];
  if (code === 'REGISTRY_TARGET_NOT_FOUND')
    return [
      {
        action: 'list_registry_targets',
        method: 'GET',
        url: `${baseUrl}${LINKS.registryPack}`,
        description: 'The registry-pack targets.',
      },
    ];
  return discoverAndCatalog(baseUrl);
}

function conflict(input: NextActionsInput): NextAction[] {
  const { baseUrl, code } = input;
  const actions: NextAction[] = [];
  if (input.retryAfterSeconds !== undefined) actions.push(retryAfter(input));
  if (code === 'LAST_ACTIVE_KEY')
    return [
      {
        action: 'create_key',
        method: 'POST',
        url: `${baseUrl}${PATHS.keys}`,
        description: 'Create another key first; then the old one can be revoked.',
      },
      listKeys(baseUrl),
    ];
  if (code === 'CHECKOUT_SESSION_EXPIRED')
    return [
      {
        action: 'open_checkout',
        method: 'GET',
        url: `${baseUrl}${PATHS.checkoutLink}`,
        description: 'Open a new hosted checkout (send the key in x-api-key to credit its account).',
      },
    ];
  if (code === 'IDEMPOTENCY_KEY_REUSED')
    return [
      {
        action: 'retry_with_new_idempotency_key',
        method: input.method,
        url: sameRequest(input),
        description: 'A new request needs a new Idempotency-Key (e.g. a UUID).',
      },
    ];
  const reread = rereadFor(input.path);
  if (reread) actions.push(reread(baseUrl));
  if (actions.length === 0)
    actions.push({
      action: 'retry',
      method: input.method,
      url: sameRequest(input),
      description: 'Retry the request: the refused one changed nothing (charges are never doubled).',
    });
  return actions;
}

function retryAfter(input: NextActionsInput): NextAction {
  const seconds = input.retryAfterSeconds ?? 1;
  return {
    action: 'retry_after',
    method: input.method,
    url: sameRequest(input),
    retry_after_seconds: seconds,
    description: `Make the same request again after ${seconds} seconds (Retry-After).`,
  };
}

function operationDocs(input: NextActionsInput): NextAction {
  const { baseUrl, operation } = input;
  if (!operation) return openapi(baseUrl, 'The OpenAPI document: every operation with its parameters and schemas.');
  const pointer = ['paths', operation.path, operation.method.toLowerCase()]
    .map((token) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1')))
    .join('/');
  return {
    action: 'read_operation_docs',
    method: 'GET',
    url: `${baseUrl}${LINKS.openapi}#/${pointer}`,
    operation_id: operation.operationId,
    description: `The operation ${operation.operationId} in the OpenAPI document: its parameters, body and responses (the fragment is a JSON pointer).`,
  };
}

function errorEntry({ baseUrl, code }: NextActionsInput): NextAction {
  return {
    action: 'read_error',
    method: 'GET',
    url: `${baseUrl}${LINKS.errors}#${encodeURIComponent(code)}`,
    description: `What ${code} means and what to do (the error catalogue; the fragment is the code).`,
  };
}

function checkStatus({ baseUrl }: NextActionsInput): NextAction {
  return {
    action: 'check_status',
    method: 'GET',
    url: `${baseUrl}${PATHS.status}`,
    description: 'The service status; with the key in x-api-key, its account: balance, autopay, recent charges.',
  };
}

function openapi(baseUrl: string, description: string): NextAction {
  return { action: 'read_openapi', method: 'GET', url: `${baseUrl}${LINKS.openapi}`, description };
}

function discoverAndCatalog(baseUrl: string): NextAction[] {
  return [
    {
      action: 'list_companies',
      method: 'GET',
      url: `${baseUrl}${LINKS.discovery}`,
      description: 'Ranked companies with their ids (a paid read, meter read.discovery_top).',
    },
    {
      action: 'view_catalog',
      method: 'GET',
      url: `${baseUrl}${PATHS.catalog}`,
      description: 'What the service offers: operations, credit packs and meter prices.',
    },
  ];
}

function listKeys(baseUrl: string): NextAction {
  return {
    action: 'list_keys',
    method: 'GET',
    url: `${baseUrl}${PATHS.keys}`,
    description: 'The active keys of the account, with their ids.',
  };
}

type Link = (baseUrl: string) => NextAction;

const list =
  (action: string, path: string, description: string): Link =>
  (baseUrl) => ({ action, method: 'GET', url: `${baseUrl}${path}`, description });

const WORKSPACE_COMPANY = new RegExp(`^${A}/workspace/companies/([^/]+)(/[^/]+)?`);

/** The workspace list a 404 under /workspace points to (the ids it can use). */
function workspaceListFor(path: string): Link | undefined {
  if (!path.startsWith(`${A}/workspace/`)) return undefined;
  if (path.startsWith(LINKS.workspaceDeals))
    return list('list_deals', LINKS.workspaceDeals, 'The deals of the workspace, with their ids.');
  if (path.startsWith(LINKS.workspaceSubscriptions))
    return list(
      'list_webhook_subscriptions',
      LINKS.workspaceSubscriptions,
      'The webhook subscriptions of the workspace, with their ids.',
    );
  return list('list_workspace_companies', LINKS.workspaceCompanies, 'The companies of the workspace, with their ids.');
}

/** What to read again after a 409 or 412: the resource as it is now. */
function rereadFor(path: string): Link | undefined {
  const company = WORKSPACE_COMPANY.exec(path);
  if (company) {
    const base = `${LINKS.workspaceCompanies}/${company[1]}`;
    if (company[2] === '/memo')
      return list('read_memo', `${base}/memo`, 'The memo as it is now: its ETag is the If-Match of the next PATCH.');
    if (company[2] === '/follow-ups')
      return list('list_follow_ups', `${base}/follow-ups`, 'The follow-ups of the company as they are now.');
    return list('read_workspace_company', base, 'The company as it is now.');
  }
  if (path.startsWith(LINKS.workspaceDeliveries))
    return list('list_webhook_deliveries', LINKS.workspaceDeliveries, 'The webhook deliveries as they are now.');
  if (path.startsWith(LINKS.workspaceEvents))
    return list('list_workspace_events', LINKS.workspaceEvents, 'The workspace events.');
  const workspaceList = workspaceListFor(path);
  if (workspaceList) return workspaceList;
  if (path === PATHS.keys || path.startsWith(`${PATHS.keys}/`)) return listKeys;
  return undefined;
}

function sameRequest({ baseUrl, path, query }: NextActionsInput): string {
  return `${baseUrl}${path}${query ? `?${query}` : ''}`;
}
