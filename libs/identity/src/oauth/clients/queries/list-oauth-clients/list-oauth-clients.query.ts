import { Query } from '@nestjs/cqrs';
import type { OAuthClientDoc } from '../../oauth-clients.projection.js';

/** The account's OAuth applications, oldest first (at most 100: a settings page, not a feed). */
export class ListOAuthClientsQuery extends Query<OAuthClientDoc[]> {
  constructor(readonly accountId: string) {
    super();
  }
}
