import type { SecurityScheme } from '#http';
import { PAID_READ_RESPONSES } from '#agent-ventures';

/** OpenAPI answers every workspace route shares. */
export const WORKSPACE_TAGS = ['agent workspace'];
export const WORKSPACE_SECURITY: SecurityScheme[] = ['apiKey', 'bearer'];
export const WORKSPACE_RESPONSES = {
  ...PAID_READ_RESPONSES,
  400: {
    description:
      'VALIDATION_FAILED: the body, the query or a path parameter is invalid (unknown fields too); not charged.',
  },
  403: {
    description:
      'WORKSPACE_REQUIRES_ENTERPRISE: a self-serve key; next_actions name the enterprise upgrade and POST /agents/leads.',
  },
};
