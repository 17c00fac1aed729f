import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { emptyBody, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { repositoryIdParams } from '../../repository.view.js';
import { DisconnectRepositoryCommand } from './disconnect-repository.command.js';

@Controller('v1/repositories')
@PlatformAuth()
export class DisconnectRepositoryController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('repositories:manage')
  @Operation({
    summary: 'Disconnect a repository',
    description:
      'Scope `repositories:manage`. Emits `repository.disconnected`. The repository stays readable (status `disconnected`) and its runs, alerts and events stay; it takes no new runs, scans or analyses. Disconnecting it again → 404.',
    tags: ['repositories'],
    operationId: 'disconnectRepository',
    body: emptyBody,
    params: repositoryIdParams,
    responses: {
      204: { description: 'Disconnected.', headers: RATE_LIMIT_HEADERS },
      404: { description: "`REPOSITORY_NOT_FOUND`: unknown, another account's, or disconnected already." },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  async disconnect(
    @Param() params: z.output<typeof repositoryIdParams>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.commands.execute(
      new DisconnectRepositoryCommand({ accountId: principal.accountId, repositoryId: params.id, by: principal.id }),
    );
  }
}
