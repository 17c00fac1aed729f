import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CurrentPrincipal, PlatformAuth, type Principal, RequireScope } from '#access';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import { toCreatedWebhookView } from '#webhooks';
import { platformOwner } from '../platform-owner.js';
import { createdWebhookSchema, createWebhookBody } from '../webhook-http.schemas.js';
import { CreateWebhookCommand } from '#webhooks';

@Controller('v1/webhooks')
@PlatformAuth()
export class CreateWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @RequireScope('admin')
  @Operation({
    summary: 'Create a webhook',
    description:
      'Scope `admin`. Deliveries of the subscribed events are POSTed to `url`, signed with `secret` (`X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>`; also the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`), retried after 1 min, 5 min, 30 min and 2 h; the fifth failed attempt of a delivery (or a 410) disables the webhook. The secret is never returned. 400 for an unknown event type, a secret under 16 bytes, or a URL that is not http(s) (https on a live deployment) or points to a non-public address. 409 `WEBHOOK_LIMIT_REACHED` when the account already has `SVC_WEBHOOKS_PER_ACCOUNT` webhooks (default 20).',
    tags: ['webhooks'],
    operationId: 'createWebhook',
    body: createWebhookBody,
    responses: {
      201: {
        description: 'The new webhook (never its secret).',
        schema: createdWebhookSchema,
        headers: RATE_LIMIT_HEADERS,
      },
      409: {
        description:
          '`WEBHOOK_LIMIT_REACHED`: the account has the most webhooks it may have (`limit`); delete one first.',
      },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  async create(
    @Body() body: z.output<typeof createWebhookBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<z.output<typeof createdWebhookSchema>> {
    const doc = await this.commands.execute(
      new CreateWebhookCommand({
        channel: 'platform',
        owner: platformOwner(principal),
        url: body.url,
        events: body.events,
        secret: body.secret,
      }),
    );
    return toCreatedWebhookView(doc);
  }
}
