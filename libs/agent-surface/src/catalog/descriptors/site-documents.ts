/**
 * The documents served at the site root (not under /api/v1), one row each: where, as what, and
 * from which builder. The OpenAPI descriptor is the http lib's (/docs/api/openapi.v1.yaml).
 */
import { cacheableDocument, type CacheableDocument } from '#http';
import { type CatalogContext, DESCRIPTOR_PATHS, type DescriptorName } from '#agent-contract';
import {
  buildAgentFeed,
  buildAiPlugin,
  buildMcpServerJson,
  buildServiceAgent,
  SITE_PAGE_PATHS,
} from './descriptor.documents.js';
import { buildLlmsTxt } from './llms-txt.document.js';
import { buildLegalPage, LOGO_SVG } from './site-pages.document.js';

export type SiteDocumentName = Exclude<DescriptorName, 'openapi'> | keyof typeof SITE_PAGE_PATHS;

export interface SiteDocument {
  path: string;
  contentType: string;
  render(ctx: CatalogContext): string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const json =
  (build: (ctx: CatalogContext) => unknown) =>
  (ctx: CatalogContext): string =>
    `${JSON.stringify(build(ctx), null, 2)}\n`;

export const SITE_DOCUMENTS: Readonly<Record<SiteDocumentName, SiteDocument>> = Object.freeze({
  llms_txt: { path: DESCRIPTOR_PATHS.llms_txt, contentType: 'text/plain; charset=utf-8', render: buildLlmsTxt },
  agent_feed: { path: DESCRIPTOR_PATHS.agent_feed, contentType: JSON_TYPE, render: json(buildAgentFeed) },
  ai_plugin: { path: DESCRIPTOR_PATHS.ai_plugin, contentType: JSON_TYPE, render: json(buildAiPlugin) },
  service_agent: { path: DESCRIPTOR_PATHS.service_agent, contentType: JSON_TYPE, render: json(buildServiceAgent) },
  // One document at two addresses (the registry's and the well-known one).
  mcp_server: { path: DESCRIPTOR_PATHS.mcp_server, contentType: JSON_TYPE, render: json(buildMcpServerJson) },
  well_known_mcp_server: {
    path: DESCRIPTOR_PATHS.well_known_mcp_server,
    contentType: JSON_TYPE,
    render: json(buildMcpServerJson),
  },
  logo: { path: SITE_PAGE_PATHS.logo, contentType: 'image/svg+xml', render: () => LOGO_SVG },
  legal: { path: SITE_PAGE_PATHS.legal, contentType: 'text/html; charset=utf-8', render: buildLegalPage },
});

export const SITE_DOCUMENT_NAMES = Object.keys(SITE_DOCUMENTS) as SiteDocumentName[];

export function renderSiteDocument(name: SiteDocumentName, ctx: CatalogContext): CacheableDocument {
  const document = SITE_DOCUMENTS[name];
  return cacheableDocument(document.render(ctx), document.contentType);
}
