import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { Query } from '@nestjs/cqrs';
import type { z } from 'zod';
import type { ListPage, OperationSpec } from '#http';
import { envelopeSchema } from '#agent-contract';
import type { TenantCaller } from '#agent-billing';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../workspace.responses.js';
import { pageQuery, workspaceCompanyParams } from '../workspace.schemas.js';

/**
 * A page of what one workspace company holds (`GET /workspace/companies/{id}/…`: follow-ups,
 * memo versions): the path's company of the caller's tenant, `limit` and `cursor`.
 */
export interface CompanyPage {
  tenantId: string;
  companyId: string;
  limit: number;
  cursor: string | undefined;
}

export abstract class CompanyPageQuery<T> extends Query<ListPage<T>> implements CompanyPage {
  readonly tenantId: string;
  readonly companyId: string;
  readonly limit: number;
  readonly cursor: string | undefined;

  constructor(page: CompanyPage) {
    super();
    ({ tenantId: this.tenantId, companyId: this.companyId, limit: this.limit, cursor: this.cursor } = page);
  }
}

interface CompanyPageRequest {
  tenant?: TenantCaller;
  params: z.output<typeof workspaceCompanyParams>;
  query: z.output<typeof pageQuery>;
}

/**
 * The page a request asks for. Read when the handler runs: after WorkspaceRoute (the tenant) and
 * the operation's validation, which has replaced params and query by their parsed values.
 */
export const RequestedCompanyPage = createParamDecorator((_data: unknown, context: ExecutionContext): CompanyPage => {
  const { tenant, params, query } = context.switchToHttp().getRequest<CompanyPageRequest>();
  if (!tenant) throw new Error('RequestedCompanyPage used on a route without WorkspaceRoute');
  return { tenantId: tenant.tenantId, companyId: params.id, limit: query.limit, cursor: query.cursor };
});

/** The OpenAPI operation of such a page: the company's id, a page query, 404 for another tenant's company. */
export function companyPageOperation(spec: {
  summary: string;
  description: string;
  operationId: string;
  /** What the page lists, in its 200's description. */
  items: string;
  /** The page's schema and the id of its enveloped response. */
  page: z.ZodType;
  responseId: string;
}): OperationSpec {
  return {
    summary: spec.summary,
    description: spec.description,
    tags: WORKSPACE_TAGS,
    operationId: spec.operationId,
    params: workspaceCompanyParams,
    query: pageQuery,
    responses: {
      200: {
        description: `A page of ${spec.items} ({data, has_more, next_cursor}) in the envelope.`,
        schema: envelopeSchema(spec.page, spec.responseId),
      },
      404: { description: 'WORKSPACE_COMPANY_NOT_FOUND; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  };
}
