/**
 * The error catalogue of the agent surface (served at /api/v1/agents/errors). Every problem+json
 * answer under /api/v1 has `type` = {base}/api/v1/agents/errors#{code}; each code here is that
 * anchor. `agentError(code, ...)` builds an AppError whose status and word come from this table,
 * so a code cannot be answered without being documented (a test also scans the sources).
 * Every 4xx body also carries `next_actions[{action, method, url, description}]` with absolute
 * URLs (next-actions.ts; an error with its own, like the 402, keeps them): `action` below says
 * the same in words.
 */
import { AppError } from '#kernel';

export interface AgentErrorEntry {
  code: string;
  status: number;
  /** The `error` word of the body. */
  error: string;
  meaning: string;
  /** What the caller should do. */
  action: string;
  /** Headers that come with it. */
  headers?: readonly string[];
}

const e = <C extends string>(
  code: C,
  status: number,
  error: string,
  meaning: string,
  action: string,
  headers?: string[],
): AgentErrorEntry & { code: C } =>
  headers ? { code, status, error, meaning, action, headers } : { code, status, error, meaning, action };

export const AGENT_ERRORS = Object.freeze([
  e(
    'VALIDATION_FAILED',
    400,
    'validation_failed',
    'The body, query or path parameters do not match the operation schema (unknown fields are rejected); details[] lists {path, message}.',
    'Fix the fields named in details and retry; the OpenAPI document has every schema.',
  ),
  e(
    'MALFORMED_JSON',
    400,
    'bad_request',
    'The request body is not valid JSON.',
    'Send a JSON body with Content-Type: application/json.',
  ),
  e('MALFORMED_URL', 400, 'bad_request', 'The request URL cannot be decoded.', 'Percent-encode the path and query.'),
  e(
    'MALFORMED_REQUEST',
    400,
    'bad_request',
    'The request is not valid HTTP.',
    'Fix the client; the connection is closed.',
  ),
  e(
    'INVALID_CONTENT_LENGTH',
    400,
    'bad_request',
    'Content-Length does not match the body.',
    'Let the HTTP client compute Content-Length.',
  ),
  e('REQUEST_ABORTED', 400, 'bad_request', 'The client closed the request before it was read.', 'Retry the request.'),
  e(
    'INVALID_IDEMPOTENCY_KEY',
    400,
    'bad_request',
    'The Idempotency-Key header is not 1 to 255 visible ASCII characters.',
    'Send a shorter key, e.g. a UUID.',
  ),
  e(
    'UNKNOWN_PACK',
    400,
    'bad_request',
    'The pack id is not one of the five catalogue packs.',
    'Use a pack_id from /api/v1/agents/catalog.',
  ),
  e(
    'PAYMENT_METHOD_INVALID',
    400,
    'bad_request',
    'The payment method is unknown, belongs to another customer or was refused by the provider.',
    'Save a payment method again (setup-intent, then attach).',
  ),
  e(
    'PAYMENT_METHOD_NOT_ATTACHED',
    400,
    'bad_request',
    'The payment method is not attached to this account.',
    'POST /api/v1/billing/payment-methods/attach first.',
  ),
  e(
    'SETUP_INTENT_INVALID',
    400,
    'bad_request',
    "The setup intent is not one of this account's (or does not exist).",
    'Start again with POST /api/v1/billing/setup-intent.',
  ),
  e(
    'SETUP_INTENT_NOT_CONFIRMED',
    400,
    'bad_request',
    'The setup intent was not confirmed with this payment method.',
    "Confirm the client_secret with the payment processor's client SDK, then attach.",
  ),
  e(
    'SETUP_INTENT_SECRET_MISMATCH',
    400,
    'bad_request',
    'The client_secret does not belong to this setup intent.',
    'Use the client_secret returned with the setup intent.',
  ),
  e(
    'SIGNATURE_INVALID',
    400,
    'bad_request',
    'A payment-provider webhook has no valid signature over its raw body; nothing was credited.',
    'Only the payment provider calls this endpoint.',
  ),
  e(
    'CHECKOUT_UNBOUND',
    400,
    'bad_request',
    'A completed checkout names no account; nothing was credited.',
    'Open checkouts through /api/v1/agents/pay or /api/v1/agents/checkout-link.',
  ),
  e(
    'AMOUNT_MISMATCH',
    400,
    'bad_request',
    'The amount paid does not match the pack; nothing was credited.',
    'Pay the pack price through the hosted checkout.',
  ),
  e(
    'MISSING_AUTH',
    401,
    'unauthorized',
    'The operation needs a key and none was sent.',
    'Send x-api-key: <key> (or Authorization: Bearer <key>). No key yet: POST /api/v1/agents/pay.',
    ['WWW-Authenticate'],
  ),
  e(
    'INVALID_KEY',
    401,
    'unauthorized',
    'The key is malformed, unknown or fails its checksum.',
    'Check the key value (it is shown once, at issue); with another working key of the account, GET /api/v1/agents/keys lists its keys and POST there creates one; only with no working key, open an account with POST /api/v1/agents/pay and an Idempotency-Key.',
    ['WWW-Authenticate'],
  ),
  e(
    'REVOKED_KEY',
    401,
    'unauthorized',
    'The key was revoked.',
    'Use another key of the account or create one at /api/v1/agents/keys.',
    ['WWW-Authenticate'],
  ),
  e(
    'KEY_WRONG_SURFACE',
    401,
    'unauthorized',
    'The key was issued by the platform surface (/v1); agent data keys come from /api/v1/agents/pay or signup.',
    'Use an agent data key.',
    ['WWW-Authenticate'],
  ),
  e(
    'KEY_WRONG_ENVIRONMENT',
    401,
    'unauthorized',
    'A svc_test_ key was sent to a live deployment or the reverse.',
    "Use a key of this deployment's environment (see /api/v1/agents/status).",
    ['WWW-Authenticate'],
  ),
  e(
    'INSUFFICIENT_CREDITS',
    402,
    'insufficient_credits',
    'The balance does not cover the meter price of this call; nothing was charged. The body carries meter, price_usd, balance_usd and next_actions[].',
    'Follow next_actions (checkout link or top-up charge), then retry.',
    ['X-Credits-Balance', 'X-Credits-Required', 'X-Next-Action', 'Link'],
  ),
  e(
    'PAYMENT_DECLINED',
    402,
    'payment_failed',
    'The charge of the saved payment method was declined or needs the buyer; nothing was credited. The body carries decline_code and next_actions[].',
    'Follow next_actions (hosted checkout), or save another payment method.',
    ['X-Next-Action', 'Link'],
  ),
  e(
    'INSUFFICIENT_SCOPE',
    403,
    'forbidden',
    'The key lacks the scope the operation needs (required_scope).',
    'Use a key with that scope.',
  ),
  e(
    'TENANT_KEY_REQUIRED',
    403,
    'forbidden',
    'Workspace operations need a tenant-bound service-account key.',
    'Ask for an enterprise workspace: POST /api/v1/agents/leads.',
  ),
  e(
    'NOT_FOUND',
    404,
    'not_found',
    'The addressed resource does not exist (or is not visible to this key).',
    'Check the id.',
  ),
  e(
    'ROUTE_NOT_FOUND',
    404,
    'not_found',
    'No operation has this method and path.',
    'See /api/v1/agents/manifest or the OpenAPI document.',
  ),
  e(
    'COMPANY_NOT_FOUND',
    404,
    'not_found',
    'No company has this id or domain.',
    'GET /api/v1/discovery/top lists companies with their ids; a domain works too (example.com).',
  ),
  e(
    'ACCOUNT_NOT_FOUND',
    404,
    'not_found',
    'The agent account does not exist.',
    'Check the key; POST /api/v1/agents/pay opens a new account.',
  ),
  e(
    'CHECKOUT_LINK_SIGNATURE_INVALID',
    401,
    'unauthorized',
    'The signature of this checkout link does not match its key_id and exp (the link was changed).',
    'Use the link exactly as the service gave it, or open the checkout with the key in x-api-key.',
  ),
  e(
    'CHECKOUT_LINK_EXPIRED',
    401,
    'unauthorized',
    'This signed checkout link is older than seven days.',
    'Get a new one (any paid call at zero balance answers a 402 with it), or open the checkout with key_id alone.',
  ),
  e(
    'WORKSPACE_REQUIRES_ENTERPRISE',
    403,
    'forbidden',
    'The workspace needs an enterprise, tenant-bound key; this key is self-serve. Nothing was charged.',
    'Follow next_actions: the enterprise upgrade page and POST /api/v1/agents/leads.',
  ),
  e(
    'WORKSPACE_COMPANY_NOT_FOUND',
    404,
    'not_found',
    'The workspace has no company with this id (an id of another tenant answers the same). Not charged.',
    'GET /api/v1/workspace/companies lists the companies of the workspace.',
  ),
  e(
    'URI_TOO_LONG',
    414,
    'uri_too_long',
    'A path segment of the request is longer than the router takes (100 characters).',
    'Check the id in the path: ids of this API are far shorter.',
  ),
  e(
    'METHOD_NOT_ALLOWED',
    405,
    'method_not_allowed',
    'The path exists but not with this method; the Allow header lists the methods it takes (the MCP endpoint takes POST only: it is stateless).',
    'Send the request with a method from Allow.',
  ),
  e(
    'TOOL_NOT_FOUND',
    404,
    'not_found',
    'An MCP tools/call named a tool this server does not have: a JSON-RPC error -32602 (Invalid params) whose data.code is this code and data.tools the tool names, not a tool result (no HTTP status of its own).',
    'Call one of data.tools; tools/list gives each one’s arguments.',
  ),
  e(
    'BATCH_NOT_SUPPORTED',
    400,
    'bad_request',
    'A JSON-RPC batch sent to the MCP endpoint under protocol version 2025-06-18 or later, which has no batches (a JSON-RPC error, data.code). Nothing ran.',
    'Send one JSON-RPC message per HTTP request.',
  ),
  e(
    'BATCH_TOO_LARGE',
    400,
    'bad_request',
    'A JSON-RPC batch to the MCP endpoint holds more messages than SVC_MCP_MAX_BATCH (20 unless configured); a JSON-RPC error, data.code. Nothing ran.',
    'Split the batch, or send one message per HTTP request.',
  ),
  e(
    'ORIGIN_NOT_ALLOWED',
    403,
    'forbidden',
    'A browser page of another origin called the MCP endpoint: its Origin is neither the service’s nor in SVC_MCP_ALLOWED_ORIGINS (a JSON-RPC error, data.code). Nothing ran.',
    'Call from the service’s own origin, ask the operator to allow yours, or call from outside a browser (no Origin).',
  ),
  e(
    'HOST_NOT_ALLOWED',
    403,
    'forbidden',
    'The MCP request’s Host header does not name this service (the public URL’s host or a loopback name): a name rebound to its address (DNS rebinding). Nothing ran.',
    'Send the request to the service’s public URL.',
  ),
  e(
    'WORKSPACE_COMPANY_EXISTS',
    409,
    'conflict',
    'The workspace has a company with this domain already; company_id names it. Not charged.',
    'Use the existing company: the body names its id in company_id.',
  ),
  e(
    'MEMO_VERSION_CONFLICT',
    412,
    'precondition_failed',
    'If-Match names an older version of the memo; current_version is the one to build on. Not charged.',
    'GET the memo again (its ETag), apply the change to it, PATCH with the new If-Match.',
  ),
  e(
    'DEAL_NOT_FOUND',
    404,
    'not_found',
    'The workspace has no deal with this id (an id of another tenant answers the same). Not charged.',
    'GET /api/v1/workspace/deals lists the deals.',
  ),
  e(
    'DEAL_STAGE_TRANSITION_NOT_ALLOWED',
    409,
    'conflict',
    'A closed deal only reopens to screening; the body names from, to and the allowed stages. Not charged.',
    'Move the deal to one of the allowed stages.',
  ),
  e(
    'DEAL_EXISTS',
    409,
    'conflict',
    'A deal with this id exists already (ids are made by the service; a retry of a create made a second one).',
    'GET /api/v1/workspace/deals lists the deals.',
  ),
  e(
    'TENANT_NOT_FOUND',
    404,
    'not_found',
    'No tenant with this id (CLI).',
    'npm run svc -- workspaces create prints the tenant id.',
  ),
  e(
    'TENANT_EXISTS',
    409,
    'conflict',
    'The tenant exists already (CLI).',
    'Issue another key with npm run svc -- workspaces keys create.',
  ),
  e(
    'KEY_NOT_FOUND',
    404,
    'not_found',
    'No active key of this account has that id (for a checkout link’s key_id: no active agent key has it; nothing was opened).',
    'GET /api/v1/agents/keys lists the keys.',
  ),
  e(
    'WEBHOOK_NOT_FOUND',
    404,
    'not_found',
    'The workspace has no webhook subscription with this id (deleted, or another tenant’s: they answer the same).',
    'GET /api/v1/workspace/webhooks/subscriptions lists the subscriptions.',
  ),
  e(
    'CHECKOUT_SESSION_NOT_FOUND',
    404,
    'not_found',
    'No such checkout session.',
    'Open a new checkout with /api/v1/agents/checkout-link.',
  ),
  e(
    'SETUP_INTENT_NOT_FOUND',
    404,
    'not_found',
    'No such setup intent.',
    'Start again with POST /api/v1/billing/setup-intent.',
  ),
  e(
    'SANDBOX_DISABLED',
    404,
    'not_found',
    'The sandbox checkout is not served: this deployment uses a real payment provider.',
    'Use the checkout URL the API returned.',
  ),
  e(
    'REGISTRY_TARGET_NOT_FOUND',
    404,
    'not_found',
    'The registry-pack target is not one of openai, mcp or generic.',
    'GET /api/v1/agents/registry-pack lists the targets.',
  ),
  e(
    'CONCURRENT_MODIFICATION',
    409,
    'conflict',
    'Another request changed the same resource at the same time.',
    'Retry the request.',
  ),
  e(
    'WEBHOOK_LIMIT_REACHED',
    409,
    'conflict',
    'The workspace has the most webhook subscriptions it may have (`limit`); not charged.',
    'Delete a subscription you no longer need (DELETE /api/v1/workspace/webhooks/subscriptions/{id}), then create it again.',
  ),
  e(
    'WEBHOOK_EXISTS',
    409,
    'conflict',
    'A webhook subscription with this id exists already (ids are made by the service: a concurrent create).',
    'GET /api/v1/workspace/webhooks/subscriptions lists the subscriptions; retry the create if yours is not there.',
  ),
  e(
    'KEY_EXISTS',
    409,
    'conflict',
    'A key with this id exists already (ids are made by the service: a concurrent create).',
    'Retry the request: a new id is made.',
  ),
  e('ACCOUNT_EXISTS', 409, 'conflict', 'The account was opened already (a concurrent request).', 'Retry the request.'),
  e(
    'CUSTOMER_EXISTS',
    409,
    'conflict',
    'The account is linked to a payment customer already (a concurrent request).',
    'Retry the request.',
  ),
  e(
    'LAST_ACTIVE_KEY',
    409,
    'conflict',
    "The key is the account's only active key and cannot be revoked.",
    'Create another key (POST /api/v1/agents/keys) first.',
  ),
  e(
    'CHECKOUT_SESSION_EXPIRED',
    409,
    'conflict',
    'The checkout session has expired.',
    'Open a new checkout with /api/v1/agents/checkout-link.',
  ),
  e(
    'IDEMPOTENCY_KEY_REUSED',
    409,
    'conflict',
    'This Idempotency-Key was used with other parameters.',
    'Use a new Idempotency-Key for a new request.',
  ),
  e(
    'IDEMPOTENCY_KEY_IN_PROGRESS',
    409,
    'conflict',
    'A request with this Idempotency-Key is still running.',
    'Retry after Retry-After seconds: the first answer is replayed.',
    ['Retry-After'],
  ),
  e('PAYLOAD_TOO_LARGE', 413, 'payload_too_large', 'The body exceeds 1 MiB.', 'Send a smaller body.'),
  e(
    'UNSUPPORTED_MEDIA_TYPE',
    415,
    'unsupported_media_type',
    'The body is not application/json.',
    'Send Content-Type: application/json.',
  ),
  e('REQUEST_TIMEOUT', 408, 'request_timeout', 'The request took too long to arrive.', 'Retry.'),
  e(
    'HEADERS_TOO_LARGE',
    431,
    'request_header_fields_too_large',
    'The request headers are too large.',
    'Send fewer or smaller headers.',
  ),
  e(
    'RATE_LIMIT_EXCEEDED',
    429,
    'rate_limit_exceeded',
    'Too many requests for this key in the current window (or, on the MCP endpoint without a key, from this address); each message of an MCP batch counts, and one over the limit is answered with this body (a tool error for tools/call). retry_after says when to retry (seconds).',
    'Wait retry_after seconds (also in Retry-After), then retry.',
    ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  ),
  e(
    'INTERNAL_ERROR',
    500,
    'internal_error',
    'An unexpected error; nothing about it is disclosed. A charge is never kept for a failed call.',
    'Retry later; report the x-request-id header.',
  ),
  e(
    'READ_MODEL_BEHIND',
    503,
    'service_unavailable',
    'The change was recorded, but the read models did not catch up in time to answer with it.',
    'Read it again after Retry-After seconds; do not repeat the request.',
    ['Retry-After'],
  ),
  e(
    'STORE_UNAVAILABLE',
    503,
    'service_unavailable',
    'The event store is unreachable; nothing was written or charged.',
    'Retry after Retry-After seconds.',
    ['Retry-After'],
  ),
  e(
    'PAYMENT_PROVIDER_ERROR',
    502,
    'bad_gateway',
    'The payment provider did not answer; nothing was charged or credited.',
    'Retry after Retry-After seconds.',
    ['Retry-After'],
  ),
  e(
    'STRIPE_WEBHOOK_NOT_CONFIGURED',
    503,
    'service_unavailable',
    'Stripe webhooks are not configured on this deployment (STRIPE_WEBHOOK_SECRET).',
    'Operators: set STRIPE_WEBHOOK_SECRET.',
  ),
]);

export type AgentErrorCode = (typeof AGENT_ERRORS)[number]['code'];

export function findAgentError(code: string): AgentErrorEntry | undefined {
  return AGENT_ERRORS.find((x) => x.code === code);
}

/** An AppError for a catalogued code: status and word come from the catalogue. */
export function agentError(
  code: AgentErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): AppError {
  const entry = findAgentError(code)!;
  return new AppError(entry.status, entry.error, entry.code, message, extra, headers);
}
