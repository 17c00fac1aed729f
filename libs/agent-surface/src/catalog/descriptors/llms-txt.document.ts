/**
 * /llms.txt (llmstxt.org): a `# title`, a `> summary` blockquote, a paragraph, then `## section`
 * lists of `- [name](absolute url): note`. Built from the endpoint table and the effective prices;
 * only what is served is linked. The `Optional` section is the one a reader may skip.
 */
import {
  AGENT_API_PREFIX,
  AGENT_ENDPOINTS,
  agentBaseUrl,
  type AgentEndpoint,
  agentUrl,
  type CatalogContext,
  type DescriptorName,
  descriptorStatus,
  type EndpointGroup,
  endpointStatus,
  endpointUrl,
  findEndpoint,
  findPack,
  MCP_TOOLS,
  STARTER_PACK_ID,
} from '#agent-contract';
import { enterprisePath, pilotLifecycle } from '../enterprise-path.js';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../information.parts.js';
import { centsToUsd } from '#kernel';
import { PAY_IDEMPOTENCY_NOTE } from '#agent-billing';
import { apiReferenceUrl, descriptorUrl, sitePageUrl } from './descriptor.documents.js';

/** The first calls, with the names a reader looks for. */
const START: ReadonlyArray<[name: string, title: string]> = [
  ['quickstart', 'Quickstart'],
  ['pay', 'Get a key and pay'],
  ['catalog', 'Catalogue'],
  ['quote', 'Quote for an objective'],
  ['status', 'Status, prices and balance'],
];

const REFERENCE: ReadonlyArray<[name: string, title: string]> = [
  ['errors', 'Error catalogue'],
  ['recovery', 'Recovering from errors'],
];

const DESCRIPTOR_TITLES: ReadonlyArray<[name: DescriptorName, title: string, note: string]> = [
  ['openapi', 'OpenAPI', 'OpenAPI 3.1 description of every route, with request and response schemas'],
  ['agent_feed', 'Agent feed', 'services, packs, meters with prices, endpoints and MCP tools as one JSON feed'],
  ['service_agent', 'Service entry points', 'signup, pay, catalogue, status, OpenAPI, MCP and these documents'],
  ['ai_plugin', 'OpenAI plugin manifest', 'ai-plugin.json with the x-api-key header'],
];

const GROUP_SECTIONS: ReadonlyArray<[group: EndpointGroup, title: string]> = [
  ['data', 'Data'],
  ['workspace', 'Enterprise workspace (tenant-bound key)'],
  ['billing', 'Billing'],
];

const available = (e: AgentEndpoint) => endpointStatus(e) === 'available';
const usd = (ctx: CatalogContext, cents: number) => `${centsToUsd(cents).toFixed(2)} USD`;

/** The summary, the price and the key it needs; the method when the title does not say it and it is not GET. */
function note(ctx: CatalogContext, e: AgentEndpoint, withMethod = false): string {
  const auth = { none: '', key: ' Agent key.', key_optional: ' Key optional.', tenant_key: ' Tenant-bound key.' }[
    e.auth
  ];
  const price = e.meter ? ` ${usd(ctx, ctx.prices[e.meter])} per successful call (meter ${e.meter}).` : '';
  const method = withMethod && e.method !== 'GET' ? `${e.method}: ` : '';
  return `${method}${e.summary}.${price}${auth}`;
}

const item = (title: string, url: string, text: string) => `- [${title}](${url}): ${text}`;
const operationTitle = (e: AgentEndpoint) => `${e.method} ${AGENT_API_PREFIX}${e.path}`;

export function buildLlmsTxt(ctx: CatalogContext): string {
  const listed = new Set<string>();
  const named = (rows: ReadonlyArray<[string, string]>) =>
    rows
      .map(([name, title]) => [findEndpoint(name), title] as const)
      .filter(([e]) => available(e))
      .map(([e, title]) => {
        listed.add(e.name);
        return item(title, agentUrl(ctx, e.path), note(ctx, e, true));
      });
  const group = (g: EndpointGroup) =>
    AGENT_ENDPOINTS.filter((e) => e.group === g && available(e) && !listed.has(e.name)).map((e) => {
      listed.add(e.name);
      return item(operationTitle(e), agentUrl(ctx, e.path), note(ctx, e));
    });
  const descriptor = ([name, title, text]: [DescriptorName, string, string]) =>
    descriptorStatus(name) === 'available' ? [item(title, descriptorUrl(ctx, name), text)] : [];

  const starter = findPack(STARTER_PACK_ID)!;
  const sections: Array<[string, string[]]> = [
    ['Start', named(START)],
    ...GROUP_SECTIONS.map(([g, title]) => [title, group(g)] as [string, string[]]),
    [
      'MCP',
      endpointStatus('mcp') === 'available'
        ? [
            item(
              'MCP endpoint',
              endpointUrl(ctx, 'mcp'),
              `POST: streamable HTTP, x-api-key header; tools: ${MCP_TOOLS.map((t) => t.name).join(', ')} (their arguments: the agent feed, the MCP registry pack or tools/list)`,
            ),
            ...descriptor(['mcp_server', 'MCP server.json', 'the MCP registry entry with the remote and its header']),
          ]
        : [],
    ],
    [
      'Reference',
      [
        ...named(REFERENCE),
        ...DESCRIPTOR_TITLES.flatMap(descriptor),
        item('API reference', apiReferenceUrl(ctx), 'interactive reference of the OpenAPI document'),
      ],
    ],
    [
      'Optional',
      [
        ...AGENT_ENDPOINTS.filter((e) => available(e) && !listed.has(e.name) && e.group !== 'mcp').map((e) =>
          item(operationTitle(e), agentUrl(ctx, e.path), note(ctx, e)),
        ),
        item('Terms and guarantees', sitePageUrl(ctx, 'legal'), 'what is sold, how it is charged, and contact'),
      ],
    ],
  ];

  return [
    `# ${SERVICE_NAME}`,
    '',
    `> ${SERVICE_DESCRIPTION}`,
    '',
    `API base URL: ${agentBaseUrl(ctx)}. Send your agent key in the \`x-api-key\` header ` +
      `(or \`Authorization: Bearer <key>\`). One call returns a key and a ${centsToUsd(starter.amount_cents)} USD ` +
      `starter checkout: \`POST ${endpointUrl(ctx, 'pay')}\`. Paid calls are charged per successful call ` +
      `from prepaid credits; errors are RFC 9457 problem+json with next actions.`,
    '',
    PAY_IDEMPOTENCY_NOTE,
    '',
    `Enterprise workspace: ${enterprisePath(ctx).join(' ')} The operator pilot: ${pilotLifecycle().join(' ')}`,
    ...sections.filter(([, items]) => items.length).flatMap(([title, items]) => ['', `## ${title}`, '', ...items]),
    '',
  ].join('\n');
}
