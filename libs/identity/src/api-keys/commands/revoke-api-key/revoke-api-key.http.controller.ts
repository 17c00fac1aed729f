import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { emptyBody, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '../../../shared/platform-openapi.js';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { keyIdParams } from '../../api-key.params.js';
import { RevokeApiKeyCommand } from '#access';

@Controller('v1/api-keys')
@PlatformAuth()
export class RevokeApiKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':key_id')
  @HttpCode(204)
  @RequireScope('admin')
  @Operation({
    summary: 'Revoke an API key',
    description:
      "Scope `admin`. The key fails from its very next request on this instance, and within one second on every other. A key may revoke itself. Unknown, already revoked and other accounts' keys: 404.",
    tags: ['api-keys'],
    operationId: 'revokeApiKey',
    body: emptyBody,
    params: keyIdParams,
    responses: {
      204: { description: 'Revoked.', headers: RATE_LIMIT_HEADERS },
      404: { description: 'No such (active) key in this account: `KEY_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  async revoke(@Param() params: z.output<typeof keyIdParams>, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.commands.execute(
      new RevokeApiKeyCommand({
        keyId: params.key_id,
        requester: { keyId: principal.id, accountId: principal.accountId, scopes: [...principal.scopes] },
      }),
    );
  }
}
