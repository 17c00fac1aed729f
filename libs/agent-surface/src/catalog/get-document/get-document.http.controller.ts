import { Controller, Get, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation, type RequestOrigin } from '#http';
import { acquisitionSchema, trafficSchema } from '../acquisition.documents.js';
import { capabilitiesSchema, manifestSchema, quickstartSchema } from '../capabilities.documents.js';
import { catalogSchema } from '../catalog.document.js';
import { noQuery } from '../catalog.schemas.js';
import { conversionSchema, growthSchema, offersSchema, valueProofSchema } from '../purchase.documents.js';
import { errorCatalogSchema, recoverySchema } from '../recovery.documents.js';
import { trustSchema } from '../status.documents.js';
import { GetInformationDocumentQuery, type InformationDocument } from './get-document.query.js';

// Operation ids are the ones these routes had when one controller served them all (stable for SDKs).
const TAGS = ['agent information'];
const ok = (description: string, schema: z.ZodType) => ({ 200: { description, schema } });

/**
 * The public information documents of the agent surface: all GET, no key, in the
 * `{version: "v1", as_of, data}` envelope. Each route asks for its document by name.
 */
@Controller('api/v1/agents')
export class GetInformationDocumentController {
  constructor(private readonly queries: QueryBus) {}

  private get(name: InformationDocument, request: RequestOrigin) {
    return this.queries.execute(new GetInformationDocumentQuery(name, request));
  }

  @Get('catalog')
  @Operation({
    description:
      'The five credit packs with prices, bonuses and the calls each covers, the service catalogue (what each service includes and how to buy it), the revenue tiers, and the fastest paths to a first paid call and to the operator pilot. Public, no key.',
    operationId: 'AgentsInformationController_getCatalog',
    summary: 'Credit packs, service catalogue, revenue tiers and purchase paths',
    tags: TAGS,
    query: noQuery,
    responses: ok('The catalogue.', catalogSchema),
  })
  getCatalog(@Req() request: RequestOrigin) {
    return this.get('catalog', request);
  }

  @Get('value-proof')
  @Operation({
    description:
      'For each pack, how many calls of each meter it buys at the current prices, and how a buyer verifies every charge afterwards (the credit ledger, X-Credits-* headers). Public, no key.',
    operationId: 'AgentsInformationController_getValueProof',
    summary: 'What each pack buys at current prices, and how every charge can be verified',
    tags: TAGS,
    query: noQuery,
    responses: ok('Value proof.', valueProofSchema),
  })
  getValueProof(@Req() request: RequestOrigin) {
    return this.get('value-proof', request);
  }

  @Get('capabilities')
  @Operation({
    description:
      'Every operation of the agent surface with its method, URL template, authentication and meter; the MCP tools; the meters and prices; the payment flows; the descriptor documents. URL templates keep their {id} placeholders. Public, no key.',
    operationId: 'AgentsInformationController_getCapabilities',
    summary: 'Operations, MCP tools, meters, payment flows and descriptors',
    tags: TAGS,
    query: noQuery,
    responses: ok('Capabilities.', capabilitiesSchema),
  })
  getCapabilities(@Req() request: RequestOrigin) {
    return this.get('capabilities', request);
  }

  @Get('quickstart')
  @Operation({
    description:
      'The first calls to make (get a key, pay, the first paid read) and the five quickstart workflows with what each costs, as URL templates to fill in. Public, no key.',
    operationId: 'AgentsInformationController_getQuickstart',
    summary: 'First calls and the five quickstart workflows with their costs',
    tags: TAGS,
    query: noQuery,
    responses: ok('Quickstart.', quickstartSchema),
  })
  getQuickstart(@Req() request: RequestOrigin) {
    return this.get('quickstart', request);
  }

  @Get('offers')
  @Operation({
    description: 'The offers running now (none) and the volume bonuses built into the larger packs. Public, no key.',
    operationId: 'AgentsInformationController_getOffers',
    summary: 'Active offers (none) and the volume bonuses built into the packs',
    tags: TAGS,
    query: noQuery,
    responses: ok('Offers.', offersSchema),
  })
  getOffers(@Req() request: RequestOrigin) {
    return this.get('offers', request);
  }

  @Get('growth')
  @Operation({
    description:
      'The tier ladder from the starter pack to enterprise, how to move up, autopay, and the operator pilot. Public, no key.',
    operationId: 'AgentsInformationController_getGrowth',
    summary: 'Tier ladder, upgrade paths, autopay and the operator pilot',
    tags: TAGS,
    query: noQuery,
    responses: ok('Growth paths.', growthSchema),
  })
  getGrowth(@Req() request: RequestOrigin) {
    return this.get('growth', request);
  }

  @Get('acquisition')
  @Operation({
    description:
      'How an agent gets a key and pays (POST /agents/pay, signup, checkout links), the check call that creates nothing, and the attribution parameters (source, source_ref). Public, no key.',
    operationId: 'AgentsInformationController_getAcquisition',
    summary: 'Ways to get a key and pay, the check call and attribution parameters',
    tags: TAGS,
    query: noQuery,
    responses: ok('Acquisition.', acquisitionSchema),
  })
  getAcquisition(@Req() request: RequestOrigin) {
    return this.get('acquisition', request);
  }

  @Get('recovery')
  @Operation({
    description:
      'For each error status the agent surface answers (401, 402, 403, 409, 429, 503), its codes and the request that recovers from it. Public, no key.',
    operationId: 'AgentsInformationController_getRecovery',
    summary: 'How to recover from 401, 402, 403, 409, 429 and 503',
    tags: TAGS,
    query: noQuery,
    responses: ok('Recovery guide.', recoverySchema),
  })
  getRecovery(@Req() request: RequestOrigin) {
    return this.get('recovery', request);
  }

  @Get('errors')
  @Operation({
    operationId: 'AgentsInformationController_getErrors',
    summary: 'The error catalogue: every code of the agent surface with its status and meaning',
    description: 'Problem+json answers under /api/v1 have type = this address with the code as fragment (#CODE).',
    tags: TAGS,
    query: noQuery,
    responses: ok('Error catalogue.', errorCatalogSchema),
  })
  getErrors(@Req() request: RequestOrigin) {
    return this.get('errors', request);
  }

  @Get('manifest')
  @Operation({
    description:
      'A machine-readable summary of the agent surface: its base URL, authentication, operations (URL templates), meters and descriptor documents. Public, no key.',
    operationId: 'AgentsInformationController_getManifest',
    summary: 'Machine-readable manifest of the agent surface',
    tags: TAGS,
    query: noQuery,
    responses: ok('Manifest.', manifestSchema),
  })
  getManifest(@Req() request: RequestOrigin) {
    return this.get('manifest', request);
  }

  @Get('trust')
  @Operation({
    description:
      'What the service guarantees about keys, billing (charges only on success, committed before the data), payments, data provenance and webhook delivery. Public, no key.',
    operationId: 'AgentsInformationController_getTrust',
    summary: 'Security, billing, payment, data and delivery guarantees',
    tags: TAGS,
    query: noQuery,
    responses: ok('Trust.', trustSchema),
  })
  getTrust(@Req() request: RequestOrigin) {
    return this.get('trust', request);
  }

  @Get('conversion')
  @Operation({
    description:
      'The shortest path from a first request to a first paid call, step by step with the calls to make. Public, no key.',
    operationId: 'AgentsInformationController_getConversion',
    summary: 'The shortest path from first request to first paid call',
    tags: TAGS,
    query: noQuery,
    responses: ok('Conversion funnel.', conversionSchema),
  })
  getConversion(@Req() request: RequestOrigin) {
    return this.get('conversion', request);
  }

  @Get('traffic')
  @Operation({
    description:
      'Attribution parameters, referral links per pack, the rate limits a caller meets, and the discovery documents that describe the service. Public, no key.',
    operationId: 'AgentsInformationController_getTraffic',
    summary: 'Attribution parameters, referral links, rate limits and discovery documents',
    tags: TAGS,
    query: noQuery,
    responses: ok('Traffic guide.', trafficSchema),
  })
  getTraffic(@Req() request: RequestOrigin) {
    return this.get('traffic', request);
  }
}
