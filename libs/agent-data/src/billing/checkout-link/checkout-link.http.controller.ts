import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AnonymousLimit } from '#access';
import { Operation, publicBaseUrl, type RequestOrigin } from '#http';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { prefersJson } from '../billing.http.js';
import { CreateCheckoutLinkCommand } from './checkout-link.command.js';
import { checkoutLinkQuery, type CheckoutLinkParams } from './checkout-link.schema.js';

type HttpRequest = RequestOrigin & { headers: Record<string, string | string[] | undefined> };
interface Reply {
  header(name: string, value: string): Reply;
  code(status: number): Reply;
  send(body?: unknown): unknown;
}

@Controller('api/v1')
export class CheckoutLinkController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('agents/checkout-link')
  @AnonymousLimit('write')
  @Operation({
    summary: 'Hosted checkout for a pack (bound to a key, or opening a new account)',
    description:
      'Opens a hosted checkout for the pack whose credits go to the account of key_id. Without key_id the checkout is unbound: paying it opens a new account, and the checkout success page shows its key once. Answers 303 to the checkout page, or 200 {url, …} when the request prefers application/json.',
    tags: ['agent billing'],
    operationId: 'agentCheckoutLink',
    query: checkoutLinkQuery,
    responses: {
      200: { description: 'With Accept: application/json: the checkout address.' },
      303: { description: 'Location: the hosted checkout.' },
      404: { description: 'KEY_NOT_FOUND: no active agent key with that id.' },
    },
  })
  async checkoutLink(
    @Query() query: CheckoutLinkParams,
    @Req() request: HttpRequest,
    @Res() reply: Reply,
  ): Promise<void> {
    const body = await this.commands.execute(new CreateCheckoutLinkCommand(query, publicBaseUrl(request, this.config)));
    if (prefersJson(request.headers.accept)) {
      reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
      return;
    }
    reply
      .code(303)
      .header('location', body.url)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body));
  }
}
