import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { MEMOS_COLLECTION, type MemoDoc } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { type MemoView, memoView } from '../../workspace.views.js';
import { GetMemoQuery } from './get-memo.query.js';

@QueryHandler(GetMemoQuery)
export class GetMemoHandler implements IQueryHandler<GetMemoQuery, MemoView> {
  constructor(private readonly reads: WorkspaceReads) {}

  async execute({ tenantId, companyId }: GetMemoQuery): Promise<MemoView> {
    await this.reads.company(tenantId, companyId);
    return memoView(companyId, await this.reads.collection<MemoDoc>(MEMOS_COLLECTION).get(companyId));
  }
}
