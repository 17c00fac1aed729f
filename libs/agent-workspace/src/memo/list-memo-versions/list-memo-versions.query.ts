import type { MemoView } from '../../workspace.views.js';
import { CompanyPageQuery } from '../../companies/company-page.js';

/** Earlier versions of a memo, newest first, read from its stream (the events are the history). */
export class ListMemoVersionsQuery extends CompanyPageQuery<MemoView> {}
