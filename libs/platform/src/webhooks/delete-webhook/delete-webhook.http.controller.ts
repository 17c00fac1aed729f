import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { emptyBody, Operation } from '#http';
import { CurrentPrincipal, PlatformAuth, type Principal, RequireScope } from '#access';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import { platformOwner } from '../platform-owner.js';
import { webhookIdParams } from '../webhook-http.schemas.js';
import { DeleteWebhookCommand } from '#webhooks';

@Controller('v1/webhooks')
@PlatformAuth()
export class DeleteWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('admin')
  @Operation({
    summary: 'Delete a webhook',
    description: 'Scope `admin`. No delivery is made after this; pending retries are cancelled. Deleting again: 404.',
    tags: ['webhooks'],
    operationId: 'deleteWebhook',
    body: emptyBody,
    params: webhookIdParams,
    responses: {
      204: { description: 'Deleted.', headers: RATE_LIMIT_HEADERS },
      404: { description: 'No such webhook in this account: `WEBHOOK_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  async delete(
    @Param() params: z.output<typeof webhookIdParams>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.commands.execute(
      new DeleteWebhookCommand({ channel: 'platform', owner: platformOwner(principal), webhookId: params.id }),
    );
  }
}
