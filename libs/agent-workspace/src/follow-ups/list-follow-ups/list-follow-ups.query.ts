import type { FollowUpView } from '../../workspace.views.js';
import { CompanyPageQuery } from '../../companies/company-page.js';

/** A workspace company's follow-ups, soonest due first. */
export class ListFollowUpsQuery extends CompanyPageQuery<FollowUpView> {}
