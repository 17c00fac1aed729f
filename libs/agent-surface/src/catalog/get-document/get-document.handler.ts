import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { buildAcquisition, buildTraffic } from '../acquisition.documents.js';
import { buildCapabilities, buildManifest, buildQuickstart } from '../capabilities.documents.js';
import { buildCatalog } from '../catalog.document.js';
import { type AgentEnvelope, type CatalogContext, CatalogContextProvider } from '#agent-contract';
import { buildConversion, buildGrowth, buildOffers, buildValueProof } from '../purchase.documents.js';
import { buildLeadsInfo } from '../leads/leads-info.document.js';
import { buildErrorCatalog, buildRecovery } from '../recovery.documents.js';
import { buildTrust } from '../status.documents.js';
import { type FixedDocument, GetInformationDocumentQuery } from './get-document.query.js';

const BUILDERS: Record<FixedDocument, (ctx: CatalogContext) => unknown> = {
  catalog: buildCatalog,
  'value-proof': buildValueProof,
  capabilities: buildCapabilities,
  quickstart: buildQuickstart,
  offers: buildOffers,
  growth: buildGrowth,
  acquisition: buildAcquisition,
  recovery: buildRecovery,
  errors: buildErrorCatalog,
  manifest: buildManifest,
  trust: buildTrust,
  conversion: buildConversion,
  traffic: buildTraffic,
  leads: buildLeadsInfo,
};

/**
 * Builds a document once per base URL (CatalogContextProvider caches it) and wraps it fresh. The status
 * document has a live part (the stores' health) and is get-status's.
 */
@QueryHandler(GetInformationDocumentQuery)
export class GetInformationDocumentHandler implements IQueryHandler<
  GetInformationDocumentQuery,
  AgentEnvelope<unknown>
> {
  constructor(private readonly catalog: CatalogContextProvider) {}

  execute({ name, origin }: GetInformationDocumentQuery): Promise<AgentEnvelope<unknown>> {
    return Promise.resolve(this.catalog.document(name, origin, BUILDERS[name]));
  }
}
