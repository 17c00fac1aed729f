import { type DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { type AppConfig } from '#kernel';
import { LoggingModule, OpenApiModule } from '#http';
import type { ApiAppOptions } from './api-app.options.js';
import { featureModules } from '../features.js';
import { HealthModule } from '../health/health.module.js';
import { StorageModule } from '../storage/storage.module.js';

/** What each tag of the OpenAPI document groups (an operation's tag must be here). */
const OPENAPI_TAGS: Record<string, string> = {
  account: 'The platform account of the credential: plan and rate limits.',
  'agent billing': 'Credit purchases, saved payment methods, autopay and the credit ledger of an agent account.',
  'agent data': 'Metered reads of the venture data: the ranked discovery list, company profiles and scores.',
  'agent information':
    'Public guidance documents of the agent surface: catalogue, capabilities, quickstart, errors, registry packs.',
  'agent keys': 'Agent API keys: list, rotate and revoke the keys of an account.',
  'agent mcp': 'The Model Context Protocol endpoint: the agent operations as MCP tools.',
  'agent onboarding': 'Getting an agent key and a checkout in one call, check calls, checkout links and leads.',
  'agent workspace':
    'Enterprise workspace of a tenant-bound key: companies, memos, deals, follow-ups, events, webhooks.',
  agents: 'Platform agents (templates and configuration) and the runs started from them.',
  'api-keys': 'Platform API keys of the account.',
  approvals: 'Actions that wait for a person: request, approve, reject; expire after 7 days.',
  descriptors: 'Public descriptor documents at the site root: llms.txt, agent feed, plugin and MCP server manifests.',
  events: 'The platform event log of the account (what webhooks deliver).',
  health: 'Liveness and readiness of the service and its stores.',
  oauth: 'The OAuth 2.0 authorization server (authorization code with PKCE, refresh, revocation).',
  openapi: 'This API description.',
  repositories: 'Connected repositories and their analyses.',
  runs: 'Agent runs: claim, report progress, complete, fail, cancel, findings.',
  security: 'Security scans of repositories and the vulnerabilities they report.',
  webhooks: 'Signed outgoing webhooks of the platform and their deliveries.',
};

/** The HTTP app: logging, storage, health, the API description, then the features. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: ApiAppOptions & { logger?: Logger } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggingModule.forRoot(config, options.logger ? { logger: options.logger } : {}),
        StorageModule.forRoot(config, { runProjections: config.runProjections, clock: options.clock }),
        HealthModule,
        OpenApiModule.forRoot({
          title: 'svc API',
          version: '1.0.0',
          description:
            'Platform API (/v1, /oauth) and agent data API (/api/v1). Errors: {error, message, code}; /api/v1 errors are RFC 9457 problem+json.',
          servers: [{ url: config.publicUrl ?? '/' }],
          // package.json says UNLICENSED: the terms are the service's own, on its /legal page
          // (an absolute URL only when the public address is known; the placeholder address as
          // the descriptors name it otherwise).
          license: {
            name: 'Proprietary: the terms of service at /legal',
            ...(config.publicUrl ? { url: `${config.publicUrl}/legal` } : {}),
          },
          contact: {
            name: 'svc operators',
            email: config.contactEmail ?? 'support@example.com',
            ...(config.publicUrl ? { url: `${config.publicUrl}/legal` } : {}),
          },
          tags: OPENAPI_TAGS,
        }),
        ...featureModules(config),
        ...(options.imports ?? []),
      ],
    };
  }
}
