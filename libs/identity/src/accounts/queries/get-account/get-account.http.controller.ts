import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '../../../shared/platform-openapi.js';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { GetAccountQuery } from './get-account.query.js';
import { accountViewSchema, type AccountView } from './get-account.schema.js';

@Controller('v1/account')
@PlatformAuth()
export class GetAccountController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope('read')
  @Operation({
    summary: "The caller's account",
    description: 'Scope `read`. The account the credential belongs to, with its plan and rate limits.',
    tags: ['account'],
    operationId: 'getAccount',
    responses: {
      200: { description: 'The account.', schema: accountViewSchema, headers: RATE_LIMIT_HEADERS },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  get(@CurrentPrincipal() principal: Principal): Promise<AccountView> {
    return this.queries.execute(new GetAccountQuery(principal.accountId));
  }
}
