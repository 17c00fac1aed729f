import { Query } from '@nestjs/cqrs';
import type { ApiKeyView } from '../api-key.view.js';

/** One key of the account; 404 for unknown keys and other accounts' keys alike. */
export class GetApiKeyQuery extends Query<ApiKeyView> {
  constructor(
    readonly accountId: string,
    readonly keyId: string,
  ) {
    super();
  }
}
