import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionStore } from '#projections';
import {
  OAUTH_CLIENTS_COLLECTION,
  OAUTH_CLIENTS_PROJECTION,
  type OAuthClientDoc,
} from '../../oauth-clients.projection.js';
import { ListOAuthClientsQuery } from './list-oauth-clients.query.js';

@QueryHandler(ListOAuthClientsQuery)
export class ListOAuthClientsHandler implements IQueryHandler<ListOAuthClientsQuery, OAuthClientDoc[]> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute({ accountId }: ListOAuthClientsQuery): Promise<OAuthClientDoc[]> {
    const { items } = await this.projections
      .collection<OAuthClientDoc>(OAUTH_CLIENTS_PROJECTION, OAUTH_CLIENTS_COLLECTION)
      .find({ account_id: accountId }, { sort: [['created_at', 1]], limit: 100 });
    return items;
  }
}
