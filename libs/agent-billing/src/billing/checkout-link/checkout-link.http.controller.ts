import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AnonymousLimit } from '#access';
import { Operation, prefersJson, publicBaseUrl, type RequestOrigin } from '#http';
import { JSON_OVER_PAGE } from '../../http/billing.http.js';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { AgentAuthOptional, type AgentRequest } from '#agent-contract';
import { CreateCheckoutLinkCommand } from './checkout-link.command.js';
import { checkoutLinkQuery, checkoutLinkSchema, type CheckoutLinkParams } from './checkout-link.schema.js';

type HttpRequest = RequestOrigin & AgentRequest;
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
  @AgentAuthOptional()
  @Operation({
    summary: 'Hosted checkout for a pack (bound to a key, or opening a new account)',
    description:
      'Opens a hosted checkout for the pack. The credits go to the account of `key_id` (spec payment flow 3: the link is for a person’s browser, which never holds the key), or else of the key the request is sent with (x-api-key or Authorization: Bearer). Without either the checkout is unbound: paying it opens a new account, and the checkout success page shows its key once. Links this service signed (a 402’s, with `exp` and `sig`) are checked: a changed or expired one is refused. Limited per client address like the other public doors. Answers 303 to the checkout page, or 200 {url, …} when the request prefers application/json.',
    tags: ['agent billing'],
    operationId: 'agentCheckoutLink',
    query: checkoutLinkQuery,
    responses: {
      200: { description: 'With Accept: application/json: the checkout address.', schema: checkoutLinkSchema },
      303: {
        description: 'Location: the hosted checkout (the body says the same).',
        schema: checkoutLinkSchema,
        headers: { Location: { description: 'The hosted checkout page.' } },
      },
      401: {
        description:
          'CHECKOUT_LINK_EXPIRED, CHECKOUT_LINK_SIGNATURE_INVALID (a signed link changed or out of date); or a key was sent that does not work.',
      },
      404: {
        description: 'KEY_NOT_FOUND: no active agent key has this key_id (unknown or revoked); nothing was opened.',
      },
      429: {
        description: 'RATE_LIMIT_EXCEEDED: too many checkouts opened from this address, or the key’s budget is spent.',
      },
    },
    // The key is optional: sent, it binds the checkout to its account.
    security: [{}, 'apiKey', 'bearer'],
  })
  async checkoutLink(
    @Query() query: CheckoutLinkParams,
    @Req() request: HttpRequest,
    @Res() reply: Reply,
  ): Promise<void> {
    const caller = request.principal
      ? { keyId: request.principal.keyId, accountId: request.principal.accountId }
      : null;
    const body = await this.commands.execute(
      new CreateCheckoutLinkCommand(query, publicBaseUrl(request, this.config), caller),
    );
    if (prefersJson(request.headers.accept, JSON_OVER_PAGE)) {
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
