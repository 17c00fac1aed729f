import { Query } from '@nestjs/cqrs';
import type { RequestOrigin } from '#http';
import type { AgentEnvelope } from '#agent-contract';

/** The public information documents that are a pure function of the catalogue context. */
export const INFORMATION_DOCUMENTS = [
  'catalog',
  'value-proof',
  'capabilities',
  'quickstart',
  'offers',
  'growth',
  'acquisition',
  'recovery',
  'errors',
  'manifest',
  'trust',
  'conversion',
  'traffic',
] as const;
export type InformationDocument = (typeof INFORMATION_DOCUMENTS)[number];

/** The lead form is a fixed document too, served beside the POST it describes (leads/submit-lead). */
export type FixedDocument = InformationDocument | 'leads';

/** One public document by name, in the v1 envelope; `origin` gives the base URL of its links. */
export class GetInformationDocumentQuery extends Query<AgentEnvelope<unknown>> {
  constructor(
    readonly name: FixedDocument,
    readonly origin: RequestOrigin | undefined,
  ) {
    super();
  }
}
