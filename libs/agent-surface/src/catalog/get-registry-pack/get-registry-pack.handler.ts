import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type AgentEnvelope, CatalogContextProvider, REGISTRY_TARGETS, type RegistryTarget } from '#agent-contract';
import { Errors } from '#kernel';
import { buildRegistryIndex, buildRegistryPack } from '../registry-pack.document.js';
import { GetRegistryPackQuery } from './get-registry-pack.query.js';

const isTarget = (target: string): target is RegistryTarget => (REGISTRY_TARGETS as readonly string[]).includes(target);

@QueryHandler(GetRegistryPackQuery)
export class GetRegistryPackHandler implements IQueryHandler<GetRegistryPackQuery, AgentEnvelope<unknown>> {
  constructor(private readonly catalog: CatalogContextProvider) {}

  execute({ target, origin }: GetRegistryPackQuery): Promise<AgentEnvelope<unknown>> {
    if (target === undefined)
      return Promise.resolve(this.catalog.document('registry-index', origin, buildRegistryIndex));
    if (!isTarget(target)) {
      throw Errors.notFound(
        `No registry pack for "${target}"; targets: ${REGISTRY_TARGETS.join(', ')}.`,
        'REGISTRY_TARGET_NOT_FOUND',
        { targets: [...REGISTRY_TARGETS] },
      );
    }
    return Promise.resolve(
      this.catalog.document(`registry-pack ${target}`, origin, (ctx) => buildRegistryPack(ctx, target)),
    );
  }
}
