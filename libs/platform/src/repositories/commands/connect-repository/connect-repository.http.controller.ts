import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { repositoryViewSchema, type RepositoryView } from '../../repository.view.js';
import { ConnectRepositoryCommand } from './connect-repository.command.js';
import { connectRepositoryBody } from './connect-repository.schema.js';

@Controller('v1/repositories')
@PlatformAuth()
export class ConnectRepositoryController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @RequireScope('repositories:manage')
  @Operation({
    summary: 'Connect a repository',
    description:
      'Scope `repositories:manage`. Emits `repository.connected`. A name already connected in the account (case-insensitive) → 409 `REPOSITORY_EXISTS` with its `repository_id`.',
    tags: ['repositories'],
    operationId: 'connectRepository',
    body: connectRepositoryBody,
    responses: {
      201: { description: 'The connected repository.', schema: repositoryViewSchema, headers: RATE_LIMIT_HEADERS },
      409: { description: '`REPOSITORY_EXISTS`: a repository of that name is connected already.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  connect(
    @Body() body: z.output<typeof connectRepositoryBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<RepositoryView> {
    return this.commands.execute(
      new ConnectRepositoryCommand({
        accountId: principal.accountId,
        name: body.name,
        provider: body.provider,
        url: body.url,
        by: principal.id,
      }),
    );
  }
}
