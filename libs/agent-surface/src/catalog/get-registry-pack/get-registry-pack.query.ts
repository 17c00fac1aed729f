import { Query } from '@nestjs/cqrs';
import type { RequestOrigin } from '#http';
import type { AgentEnvelope } from '#agent-contract';

/** Registration material for agent registries: the targets (no target), or one target's pack. */
export class GetRegistryPackQuery extends Query<AgentEnvelope<unknown>> {
  constructor(
    readonly target: string | undefined,
    readonly origin: RequestOrigin | undefined,
  ) {
    super();
  }
}
