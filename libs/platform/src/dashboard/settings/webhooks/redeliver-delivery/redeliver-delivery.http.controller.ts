import { Controller, Param, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { RedeliverDeliveryCommand } from '#webhooks';
import {
  BrowserErrorFilter,
  CsrfGuard,
  CurrentSession,
  redirect,
  RequirePageScope,
  type Session,
  SignedInGuard,
} from '#identity';
import { sessionOwner, webhookPath } from '../webhook-pages.js';

/**
 * POST …/{id}/deliveries/{delivery_id}/redeliver: "Redeliver", the command of its /v1 twin. The
 * command returns once the read model shows the redelivery asked for, so the page it redirects
 * to shows at least the pending attempt.
 */
@Controller('dashboard/settings/webhooks')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class RedeliverDeliveryPageController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/deliveries/:delivery_id/redeliver')
  @UseGuards(CsrfGuard)
  @RequirePageScope('admin')
  async redeliver(
    @CurrentSession() session: Session,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.commands.execute(
      new RedeliverDeliveryCommand({ channel: 'platform', owner: sessionOwner(session), webhookId: id, deliveryId }),
    );
    // Back to the webhook with this delivery expanded: its new attempt, or that attempt pending.
    const delivery = encodeURIComponent(deliveryId);
    redirect(reply, `${webhookPath(id)}?done=redelivered&open=${delivery}#delivery-${delivery}`);
  }
}
