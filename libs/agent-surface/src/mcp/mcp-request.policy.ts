import type { AppConfig } from '#kernel';
import { hostNameOf, LOOPBACK_HOSTS, publicBaseUrl, type RequestOrigin, requestHost } from '#http';

/**
 * An MCP request refused before any message is read: its HTTP status and the JSON-RPC error the
 * body carries (the transport's own shape, `id: null`: no message was taken), with a stable code
 * of the error catalogue in `data.code`.
 */
export interface McpRefusal {
  status: 400 | 403;
  code: string;
  message: string;
}

/** JSON-RPC's "Invalid Request", and the implementation-defined server error the SDK uses for 403. */
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;

/** The body of a refusal: a JSON-RPC error response. */
export function refusalBody(refusal: McpRefusal): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: refusal.status === 400 ? INVALID_REQUEST : SERVER_ERROR,
      message: refusal.message,
      data: { status: refusal.status, code: refusal.code },
    },
  });
}

type OriginConfig = Pick<AppConfig, 'publicUrl' | 'allowedHosts' | 'port' | 'mcp'>;

/**
 * The transport's security warning (Streamable HTTP): a browser page must not reach the endpoint
 * from another site, nor through a name rebound to this server (DNS rebinding). An `Origin`
 * (sent by browsers, not by other clients) must be the service's own (SVC_PUBLIC_URL's, or when
 * unset the one its links are built from) or in SVC_MCP_ALLOWED_ORIGINS. With SVC_PUBLIC_URL
 * set, the Host must name the service: the public URL's host, a loopback name, or one in
 * SVC_ALLOWED_HOSTS (the port is not compared: a proxy may forward to another one).
 */
export function originRefusal(
  request: RequestOrigin & { headers: Record<string, string | string[] | undefined> },
  config: OriginConfig,
): McpRefusal | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const own = new URL(publicBaseUrl(request, config)).origin;
    const sent = originOf(origin);
    if (sent === undefined || (sent !== own && !config.mcp.allowedOrigins.includes(sent)))
      return {
        status: 403,
        code: 'ORIGIN_NOT_ALLOWED',
        message: `Forbidden: Origin ${JSON.stringify(String(origin))} may not call this MCP endpoint (allowed: ${[own, ...config.mcp.allowedOrigins].join(', ')}); clients outside a browser send no Origin.`,
      };
  }
  if (config.publicUrl) {
    const host = requestHost(request);
    const name = hostNameOf(host);
    const allowed = [new URL(config.publicUrl).hostname.replace(/^\[(.*)\]$/, '$1'), ...LOOPBACK_HOSTS];
    if (name === undefined || (!allowed.includes(name) && !config.allowedHosts.includes(name)))
      return {
        status: 403,
        code: 'HOST_NOT_ALLOWED',
        message: `Forbidden: Host ${JSON.stringify(host ?? '')} is not this service (${new URL(config.publicUrl).host}).`,
      };
  }
  return undefined;
}

/** An Origin header as the URL's origin (lower case, no default port); undefined if it is not one. */
function originOf(header: string | string[]): string | undefined {
  if (Array.isArray(header)) return undefined;
  try {
    const url = new URL(header);
    return /^https?:$/.test(url.protocol) && url.pathname === '/' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The protocol version that removed JSON-RPC batches from MCP. */
export const BATCHES_REMOVED_IN = '2025-06-18';

/**
 * A batch is refused under a protocol version without batches (2025-06-18 and later: the
 * MCP-Protocol-Version header, or the version an initialize in it asks for), and when it holds
 * more than SVC_MCP_MAX_BATCH messages: one HTTP request must not carry unbounded work.
 */
export function batchRefusal(
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
  maxBatch: number,
): McpRefusal | undefined {
  if (!Array.isArray(body)) return undefined;
  const header = headers['mcp-protocol-version'];
  const versions = [Array.isArray(header) ? header[0] : header, ...body.map(initializeVersion)];
  const version = versions.find((v) => typeof v === 'string' && isDate(v) && v >= BATCHES_REMOVED_IN);
  if (version !== undefined)
    return {
      status: 400,
      code: 'BATCH_NOT_SUPPORTED',
      message: `Invalid Request: MCP protocol version ${version} has no JSON-RPC batches (removed in ${BATCHES_REMOVED_IN}); send one message per HTTP request.`,
    };
  if (body.length > maxBatch)
    return {
      status: 400,
      code: 'BATCH_TOO_LARGE',
      message: `Invalid Request: a batch holds at most ${maxBatch} messages; this one holds ${body.length}.`,
    };
  return undefined;
}

function initializeVersion(message: unknown): unknown {
  const m = message as { method?: unknown; params?: { protocolVersion?: unknown } } | null;
  return m?.method === 'initialize' ? m.params?.protocolVersion : undefined;
}

const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
