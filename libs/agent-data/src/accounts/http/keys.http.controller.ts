import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res, Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { CLOCK, type Clock, Errors } from '#kernel';
import { invalidCursor, listQuerySchema, Operation, toListPage } from '#http';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc, CreateApiKeyCommand, RevokeApiKeyCommand } from '#access';
import { ProjectionStore } from '#projections';
import { AgentAuth, AgentAuthenticator, type AgentPrincipal, CurrentAgent } from '../../auth/agent-auth.js';
import { Idempotency } from '../../idempotency/idempotency.service.js';
import { AGENT_KEY_SCOPES } from '../agent-key-scopes.js';

const createKeyBody = z.strictObject({ name: z.string().trim().min(1).max(100).optional() }).optional();
const keyParams = z.object({ id: z.string().regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a key id (key_…)') });

const agentKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    current: z.boolean().describe('True for the key that made this request.'),
  })
  .meta({ id: 'AgentKey' });

type AgentKeyView = z.output<typeof agentKeySchema>;

function view(doc: ApiKeyDoc, current: string): AgentKeyView {
  return { id: doc.id, name: doc.name, prefix: doc.display_prefix, created_at: doc.created_at, revoked_at: doc.revoked_at, current: doc.id === current };
}

interface HttpRequest {
  headers: Record<string, string | string[] | undefined>;
}
interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * Key rotation for agent accounts (spec: /agents/keys): create a new key for the same account,
 * move clients to it, then revoke the old one by id. Keys are the platform's API keys with
 * surface `agent` (D1), so revocation takes effect as it does there.
 */
@Controller('api/v1/agents/keys')
@AgentAuth()
export class AgentKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionStore,
    private readonly auth: AgentAuthenticator,
    private readonly idempotency: Idempotency,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @Operation({
    summary: 'Issue another key for this account (rotation)',
    description: 'The new key value is returned once. Honours Idempotency-Key for 24 h.',
    tags: ['agent keys'],
    operationId: 'agentCreateKey',
    body: createKeyBody,
    responses: { 201: { description: 'The new key.' }, 401: { description: 'Missing or invalid agent key.' } },
    security: ['apiKey', 'bearer'],
  })
  async create(
    @Body() body: z.output<typeof createKeyBody>,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    return this.idempotency.run(request, reply, `POST /api/v1/agents/keys ${agent.accountId}`, body ?? {}, async () => {
      const key = await this.commands.execute(
        new CreateApiKeyCommand({
          accountId: agent.accountId,
          name: body?.name ?? 'rotated agent key',
          scopes: AGENT_KEY_SCOPES,
          surface: 'agent',
          creator: { keyId: agent.keyId, accountId: agent.accountId, scopes: [...agent.scopes] },
        }),
      );
      return {
        key: { id: key.id, api_key: key.key, prefix: key.prefix, name: key.name, created_at: key.created_at },
        account_id: agent.accountId,
        next: 'Move clients to the new key, then DELETE /api/v1/agents/keys/{old key id}.',
      };
    });
  }

  @Get()
  @Operation({
    summary: 'List this account’s keys (newest first, revoked ones included)',
    tags: ['agent keys'],
    operationId: 'agentListKeys',
    query: listQuerySchema,
    responses: { 200: { description: 'A page of keys inside the {version, as_of, data} envelope (D6).' } },
    security: ['apiKey', 'bearer'],
  })
  async list(@Query() query: z.output<typeof listQuerySchema>, @CurrentAgent() agent: AgentPrincipal) {
    let result;
    try {
      result = await this.projections
        .collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION)
        .find({ account_id: agent.accountId }, { sort: [['created_at', -1]], limit: query.limit, ...(query.cursor ? { after: query.cursor } : {}) });
    } catch (error) {
      if ((error as Error).name === 'InvalidFilterError') throw invalidCursor();
      throw error;
    }
    return { version: 'v1', as_of: this.clock.now().toISOString(), data: toListPage(result, (doc) => view(doc, agent.keyId)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Operation({
    summary: 'Revoke a key of this account',
    description:
      'The key fails from its next request. A key cannot revoke itself while it is the account’s only active key (409 LAST_ACTIVE_KEY): create a new one first.',
    tags: ['agent keys'],
    operationId: 'agentRevokeKey',
    params: keyParams,
    responses: { 204: { description: 'Revoked.' }, 404: { description: 'KEY_NOT_FOUND' }, 409: { description: 'LAST_ACTIVE_KEY' } },
    security: ['apiKey', 'bearer'],
  })
  async revoke(@Param() params: z.output<typeof keyParams>, @CurrentAgent() agent: AgentPrincipal): Promise<void> {
    if (params.id === agent.keyId) {
      const others = await this.projections
        .collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION)
        .find({ account_id: agent.accountId, revoked_at: null }, { limit: 2 });
      if (others.items.filter((k) => k.id !== agent.keyId).length === 0) {
        throw Errors.conflict('This is the account’s only active key; create another (POST /api/v1/agents/keys) before revoking it.', 'LAST_ACTIVE_KEY');
      }
    }
    await this.commands.execute(
      new RevokeApiKeyCommand({ keyId: params.id, requester: { keyId: agent.keyId, accountId: agent.accountId, scopes: [...agent.scopes] } }),
    );
    this.auth.forget(params.id);
  }
}
