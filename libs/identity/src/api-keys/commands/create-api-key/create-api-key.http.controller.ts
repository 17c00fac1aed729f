import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { forbiddenResponse, platformErrorResponses, RATE_LIMIT_HEADERS } from '../../../shared/platform-openapi.js';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { CreateApiKeyCommand } from '#access';
import { createApiKeyBody, createdApiKeySchema } from './create-api-key.schema.js';

@Controller('v1/api-keys')
@PlatformAuth()
export class CreateApiKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @RequireScope('admin')
  @Operation({
    summary: 'Create an API key',
    description:
      'Scope `admin`. The key value is in the response and never again. A key cannot get a scope its creator lacks (403). An OAuth access token cannot create keys (403 `OAUTH_TOKEN_CANNOT_CREATE_KEYS`: a key would outlive the grant).',
    tags: ['api-keys'],
    operationId: 'createApiKey',
    body: createApiKeyBody,
    responses: {
      201: { description: 'The new key, with its value.', schema: createdApiKeySchema, headers: RATE_LIMIT_HEADERS },
      ...platformErrorResponses(),
      403: forbiddenResponse(
        'The credential lacks scope `admin`, or a scope it asks for (`INSUFFICIENT_SCOPE`); or it is an OAuth access token (`OAUTH_TOKEN_CANNOT_CREATE_KEYS`).',
        { OAUTH_TOKEN_CANNOT_CREATE_KEYS: 'OAuthTokenCannotCreateKeys' },
      ),
    },
    security: ['bearer'],
  })
  async create(
    @Body() body: z.output<typeof createApiKeyBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<z.output<typeof createdApiKeySchema>> {
    const key = await this.commands.execute(
      new CreateApiKeyCommand({
        accountId: principal.accountId,
        name: body.name,
        scopes: body.scopes,
        surface: 'platform',
        creator: {
          keyId: principal.id,
          accountId: principal.accountId,
          scopes: [...principal.scopes],
          ...(principal.kind === 'oauth_token' ? { credential: 'oauth_token' as const } : {}),
        },
      }),
    );
    return {
      id: key.id,
      key: key.key,
      name: key.name,
      scopes: key.scopes as z.output<typeof createdApiKeySchema>['scopes'],
      created_at: key.created_at,
    };
  }
}
