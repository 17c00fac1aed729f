// The platform's dashboard pages (signing in and sessions are #identity's).
export { PlatformWebModule } from './web/platform-web.module.js';
// Platform domain: repositories, agents and runs, security scans, approvals, and the
// platform events they publish. The webhook engine reads platform events through
// `toPlatformEvent` / `PLATFORM_EVENT_SOURCE_TYPES` (pure, over the stored domain events) or the
// `platform_events` read model (PLATFORM_EVENTS_PROJECTION / PLATFORM_EVENTS_COLLECTION).
export {
  PLATFORM_EVENT_MEANINGS,
  PLATFORM_EVENT_TYPES,
  platformEventSource,
  type PlatformEventType,
  toPlatformEvent,
} from './platform-events/platform-event.js';
export { PLATFORM_EVENT_DATA_SCHEMAS, platformEventSchema } from './platform-events/platform-event.schemas.js';
export {
  envelopeOf,
  PLATFORM_EVENTS_COLLECTION,
  PLATFORM_EVENTS_PROJECTION,
  type PlatformEventDoc,
} from './platform-events/platform-events.projection.js';
export { repositoryStream } from './repositories/repository.events.js';
export { repositoryDecider } from './repositories/repository.decider.js';
export { agentStream } from './agents/agent.events.js';
export { agentDecider } from './agents/agent.decider.js';
export { AGENTS_PROJECTION } from './agents/agents.projection.js';
export { runStream } from './runs/run.events.js';
export { runDecider } from './runs/run.decider.js';
export { securityStream } from './security/security.events.js';
export { securityDecider } from './security/security.decider.js';
export { APPROVAL_TTL_MS, approvalStream } from './approvals/approval.events.js';
export { approvalDecider } from './approvals/approval.decider.js';
export { ApprovalExpirySweeper } from './approvals/approval-expiry.sweeper.js';
export { RunTimeoutSweeper } from './runs/run-timeout.sweeper.js';
export { PLATFORM_DOMAIN_PROJECTIONS, PlatformDomainModule } from './platform-domain.module.js';

// Platform webhooks: /v1/webhooks over the engine's platform channel.
export { platformEventPublished, platformWebhookChannel } from './webhooks/platform-events.js';
export { PlatformWebhooksModule } from './webhooks/platform-webhooks.module.js';
