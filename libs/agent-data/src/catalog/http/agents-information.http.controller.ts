import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { z } from 'zod';
import { Operation, type RequestOrigin } from '#http';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { REGISTRY_TARGETS, type RegistryTarget } from '../agent-surface.js';
import { AGENT_ACCOUNT_STATUS, type AgentAccountStatusProvider, type AgentStatusRequest, hasAgentCredential } from '../agent-status.hook.js';
import { CatalogContextProvider } from '../catalog-context.provider.js';
import { acquisitionSchema, buildAcquisition, buildTraffic, trafficSchema } from '../acquisition.documents.js';
import { buildCapabilities, buildManifest, buildQuickstart, capabilitiesSchema, manifestSchema, quickstartSchema } from '../capabilities.documents.js';
import { buildCatalog, catalogSchema } from '../catalog.document.js';
import { noQuery } from '../catalog.schemas.js';
import { agentError } from '../error-catalog.js';
import { buildGuidance, guidanceSchema, quoteQuery, recommendTierQuery } from '../guidance.document.js';
import { buildConversion, buildGrowth, buildOffers, buildValueProof, conversionSchema, growthSchema, offersSchema, valueProofSchema } from '../purchase.documents.js';
import { buildErrorCatalog, buildRecovery, errorCatalogSchema, recoverySchema } from '../recovery.documents.js';
import { buildRegistryIndex, buildRegistryPack, registryIndexSchema, registryPackSchema, registryTargetParams } from '../registry-pack.document.js';
import { buildPublicStatus, buildTrust, statusSchema, trustSchema } from '../status.documents.js';

const TAGS = ['agent information'];
const PING_TIMEOUT_MS = 1000;

type Request = RequestOrigin & AgentStatusRequest;

const ok = (description: string, schema: z.ZodType) => ({ 200: { description, schema } });

/**
 * The public information documents of the agent surface, all GET, all in the
 * `{version: "v1", as_of, data}` envelope, no key needed (status takes one optionally).
 */
@Controller('api/v1/agents')
export class AgentsInformationController {
  private accountStatus?: AgentAccountStatusProvider | null;

  constructor(
    private readonly catalog: CatalogContextProvider,
    private readonly moduleRef: ModuleRef,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
  ) {}

  @Get('catalog')
  @Operation({
    summary: 'Credit packs, service catalogue, revenue tiers and purchase paths',
    tags: TAGS,
    query: noQuery,
    responses: ok('The catalogue.', catalogSchema),
  })
  getCatalog(@Req() request: Request) {
    return this.catalog.document('buildCatalog', request, buildCatalog);
  }

  @Get('quote')
  @Operation({
    summary: 'Purchase guidance for an objective, a segment or a pack',
    description:
      'The option of the objective\'s pack (or of `pack_id`) has preferred_for_objective true and is primary_buy_now. ' +
      'Objectives: starter and starter_proof → pack_29, growth → pack_499, operator_pilot → pack_2499, enterprise → pack_10000; ' +
      'a segment without objective implies one (builder → starter, operator → operator_pilot, enterprise → enterprise). ' +
      '`source` is carried into every checkout link (default quote), `key_id` binds them to a key.',
    tags: TAGS,
    query: quoteQuery,
    responses: ok('Purchase guidance.', guidanceSchema),
  })
  getQuote(@Req() request: Request, @Query() query: z.output<typeof quoteQuery>) {
    const ctx = this.catalog.forRequest(request);
    return this.catalog.envelope(buildGuidance(ctx, { ...query, source: query.source ?? 'quote' }));
  }

  @Get('recommend-tier')
  @Operation({
    summary: 'Recommended pack for an objective; aggressive=true recommends the next larger pack',
    description: 'Same document as /agents/quote. With aggressive=true the preferred option is the pack after the objective\'s (more bonus credits).',
    tags: TAGS,
    query: recommendTierQuery,
    responses: ok('Purchase guidance.', guidanceSchema),
  })
  getRecommendTier(@Req() request: Request, @Query() query: z.output<typeof recommendTierQuery>) {
    const ctx = this.catalog.forRequest(request);
    return this.catalog.envelope(buildGuidance(ctx, { ...query, source: query.source ?? 'recommend-tier' }));
  }

  @Get('status')
  @Operation({
    summary: 'Service status, meters and prices; with a key also the account',
    description: 'Without a key: the public status. With x-api-key (or Authorization: Bearer): also the account, balance_usd, recent ledger entries and autopay state; a key that does not work gets 401.',
    tags: TAGS,
    query: noQuery,
    responses: { ...ok('The status.', statusSchema), 401: { description: 'A key was sent and does not work.' } },
    security: [{}, 'apiKey', 'bearer'],
  })
  async getStatus(@Req() request: Request) {
    const ctx = this.catalog.forRequest(request);
    const account = hasAgentCredential(request.headers) ? await this.accountStatusProvider()?.accountStatus(request) : undefined;
    const data = { ...buildPublicStatus(ctx, { storesUp: await this.storesUp() }), ...(account ?? {}) };
    return this.catalog.envelope(data);
  }

  @Get('value-proof')
  @Operation({ summary: 'What each pack buys at current prices, and how every charge can be verified', tags: TAGS, query: noQuery, responses: ok('Value proof.', valueProofSchema) })
  getValueProof(@Req() request: Request) {
    return this.catalog.document('buildValueProof', request, buildValueProof);
  }

  @Get('capabilities')
  @Operation({ summary: 'Operations, MCP tools, meters, payment flows and descriptors', tags: TAGS, query: noQuery, responses: ok('Capabilities.', capabilitiesSchema) })
  getCapabilities(@Req() request: Request) {
    return this.catalog.document('buildCapabilities', request, buildCapabilities);
  }

  @Get('quickstart')
  @Operation({ summary: 'First calls and the five quickstart workflows with their costs', tags: TAGS, query: noQuery, responses: ok('Quickstart.', quickstartSchema) })
  getQuickstart(@Req() request: Request) {
    return this.catalog.document('buildQuickstart', request, buildQuickstart);
  }

  @Get('offers')
  @Operation({ summary: 'Active offers (none) and the volume bonuses built into the packs', tags: TAGS, query: noQuery, responses: ok('Offers.', offersSchema) })
  getOffers(@Req() request: Request) {
    return this.catalog.document('buildOffers', request, buildOffers);
  }

  @Get('growth')
  @Operation({ summary: 'Tier ladder, upgrade paths, autopay and the operator pilot', tags: TAGS, query: noQuery, responses: ok('Growth paths.', growthSchema) })
  getGrowth(@Req() request: Request) {
    return this.catalog.document('buildGrowth', request, buildGrowth);
  }

  @Get('acquisition')
  @Operation({ summary: 'Ways to get a key and pay, the check call and attribution parameters', tags: TAGS, query: noQuery, responses: ok('Acquisition.', acquisitionSchema) })
  getAcquisition(@Req() request: Request) {
    return this.catalog.document('buildAcquisition', request, buildAcquisition);
  }

  @Get('recovery')
  @Operation({ summary: 'How to recover from 401, 402, 403, 409, 429 and 503', tags: TAGS, query: noQuery, responses: ok('Recovery guide.', recoverySchema) })
  getRecovery(@Req() request: Request) {
    return this.catalog.document('buildRecovery', request, buildRecovery);
  }

  @Get('errors')
  @Operation({
    summary: 'The error catalogue: every code of the agent surface with its status and meaning',
    description: 'Problem+json answers under /api/v1 have type = this address with the code as fragment (#CODE).',
    tags: TAGS,
    query: noQuery,
    responses: ok('Error catalogue.', errorCatalogSchema),
  })
  getErrors(@Req() request: Request) {
    return this.catalog.document('buildErrorCatalog', request, buildErrorCatalog);
  }

  @Get('manifest')
  @Operation({ summary: 'Machine-readable manifest of the agent surface', tags: TAGS, query: noQuery, responses: ok('Manifest.', manifestSchema) })
  getManifest(@Req() request: Request) {
    return this.catalog.document('buildManifest', request, buildManifest);
  }

  @Get('trust')
  @Operation({ summary: 'Security, billing, payment, data and delivery guarantees', tags: TAGS, query: noQuery, responses: ok('Trust.', trustSchema) })
  getTrust(@Req() request: Request) {
    return this.catalog.document('buildTrust', request, buildTrust);
  }

  @Get('conversion')
  @Operation({ summary: 'The shortest path from first request to first paid call', tags: TAGS, query: noQuery, responses: ok('Conversion funnel.', conversionSchema) })
  getConversion(@Req() request: Request) {
    return this.catalog.document('buildConversion', request, buildConversion);
  }

  @Get('traffic')
  @Operation({ summary: 'Attribution parameters, referral links, rate limits and discovery documents', tags: TAGS, query: noQuery, responses: ok('Traffic guide.', trafficSchema) })
  getTraffic(@Req() request: Request) {
    return this.catalog.document('buildTraffic', request, buildTraffic);
  }

  @Get('registry-pack')
  @Operation({ summary: 'Registration material for agent registries: the targets', tags: TAGS, query: noQuery, responses: ok('Registry targets.', registryIndexSchema) })
  getRegistryIndex(@Req() request: Request) {
    return this.catalog.document('buildRegistryIndex', request, buildRegistryIndex);
  }

  @Get('registry-pack/:target')
  @Operation({
    summary: 'Registration material for one registry: openai, mcp or generic',
    tags: TAGS,
    params: registryTargetParams,
    query: noQuery,
    responses: { ...ok('The registry pack.', registryPackSchema), 404: { description: 'Unknown target (REGISTRY_TARGET_NOT_FOUND).' } },
  })
  getRegistryPack(@Req() request: Request, @Param() params: z.output<typeof registryTargetParams>) {
    if (!(REGISTRY_TARGETS as readonly string[]).includes(params.target)) {
      throw agentError('REGISTRY_TARGET_NOT_FOUND', `No registry pack for "${params.target}"; targets: ${REGISTRY_TARGETS.join(', ')}.`, { targets: [...REGISTRY_TARGETS] });
    }
    return this.catalog.document(`buildRegistryPack ${params.target}`, request, (ctx) => buildRegistryPack(ctx, params.target as RegistryTarget));
  }

  /** The accounts feature's provider, looked up app-wide once; null when none is registered. */
  private accountStatusProvider(): AgentAccountStatusProvider | null {
    if (this.accountStatus === undefined) {
      try {
        this.accountStatus = this.moduleRef.get<AgentAccountStatusProvider>(AGENT_ACCOUNT_STATUS, { strict: false });
      } catch {
        this.accountStatus = null;
      }
    }
    return this.accountStatus;
  }

  private async storesUp(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([Promise.all([this.events.ping(), this.documents.ping()]), timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
