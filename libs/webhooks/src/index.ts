// The webhook delivery engine: shared by the platform's /v1/webhooks and, later, the
// agent surface's workspace subscriptions. See docs/adr/0047-webhook-channels.md (and 0040-0046).

// Channels: owners, envelopes, sources
export {
  channelNames,
  type ChannelNames,
  type EnvelopeSource,
  type ReleaseSource,
  type SourcedEnvelope,
  type WebhookChannel,
  type WebhookEnvelope,
  type WebhookOwner,
  type WebhookOwnerKind,
} from './engine/channel.js';
export {
  type DisableReason,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
  webhookStream,
} from './engine/webhook.events.js';
export {
  DELIVERIES_RELEASED,
  type DeliveriesReleasedEvent,
  DELIVERY_EVENT_TYPES,
  type DeliveryAttemptData,
  type DeliveryEvent,
  type DeliveryEventType,
  type DeliveryHeldData,
  deliveryReleaseStream,
  deliveryStream,
  type FinalFailure,
} from './engine/delivery.events.js';
export {
  initialWebhookState,
  type WebhookCommand,
  webhookDecider,
  webhookNotFound,
  type WebhookState,
} from './engine/webhook.decider.js';
export {
  type AttemptOutcome,
  type DeliveryCommand,
  deliveryDecider,
  type DeliveryRef,
  type DeliveryState,
  initialDeliveryState,
  OUTCOME_UNKNOWN,
  OUTCOME_UNKNOWN_ERROR,
} from './engine/delivery.decider.js';
export { MAX_AUTOMATIC_ATTEMPTS, RETRY_DELAYS_MS, retryDelayAfter } from './engine/retry-schedule.js';
export { deliveryIdFor, deliveryIdTime } from './engine/delivery-id.js';
export {
  DELIVERY_HEADER,
  deliveryHeaders,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signWebhookBody,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  standardWebhookHeaders,
  verifyWebhookSignature,
} from './engine/signing.js';
export {
  MAX_SECRET_LENGTH,
  MAX_URL_LENGTH,
  MIN_SECRET_BYTES,
  secretProblem,
  type WebhookUrlPolicy,
  webhookUrlProblem,
} from './engine/webhook-url.policy.js';
export { checkWebhookInput, urlPolicyOf, type WebhookInput } from './engine/webhook-input.js';
export {
  type AttemptViewOut,
  type DeliveryView,
  toCreatedWebhookView,
  toDeliveryView,
  toWebhookView,
  type WebhookView,
} from './engine/webhook.views.js';
export {
  ATTEMPTS_KEPT,
  type AttemptView,
  DELIVERY_STATUSES,
  type DeliveryDoc,
  type DeliveryStatus,
  type OwnerAliasDoc,
  type PayloadDoc,
  type SubscriptionDoc,
  targetOf,
  type WebhookDoc,
} from './engine/webhook-docs.js';
export { webhooksProjection } from './engine/webhooks.projection.js';
export { type ResealSummary, secretIdFor, WEBHOOK_SECRETS_COLLECTION, WebhookSecrets } from './engine/secrets.store.js';
export { type RegisteredChannel, WebhookChannels } from './engine/webhook-channels.js';
export { deliveryNotFound, WebhookReadModel } from './engine/webhook-read-model.js';

// Sending and dispatching
export { BlockedAddressError, isPublicAddress, nonPublicReason } from './sending/address-guard.js';
export { guardedLookup, type ResolvedAddress, type Resolver, systemResolver } from './sending/guarded-lookup.js';
export {
  RESPONSE_BODY_LIMIT,
  type SendRequest,
  WebhookSender,
  type WebhookSenderOptions,
} from './sending/webhook-sender.js';
export { type AttemptContext, type BeforeSendDecision, type DeliveryHooks } from './dispatch/delivery-hooks.js';
export {
  type AttemptLease,
  DELIVERY_LEASES,
  type DeliveryLeases,
  DocumentLeases,
  MARK_RETENTION_MS,
  WEBHOOK_LEASES_COLLECTION,
} from './dispatch/leases.js';
export { SqliteDeliveryLeases } from './dispatch/sqlite-leases.js';
export {
  DEFAULT_DISPATCHER_SETTINGS,
  type DispatcherLogger,
  type DispatcherSettings,
  type DispatcherStats,
  SECRET_RETRY_MS,
  WebhookDispatcher,
  type WebhookDispatcherDeps,
} from './dispatch/webhook-dispatcher.js';
export { dispatcherJob, WebhookDispatchers } from './dispatch/webhook-dispatchers.js';

// Channel-generic commands and queries
export { CreateWebhookCommand } from './commands/create-webhook/create-webhook.command.js';
export { UpdateWebhookCommand } from './commands/update-webhook/update-webhook.command.js';
export { DeleteWebhookCommand } from './commands/delete-webhook/delete-webhook.command.js';
export { SendTestEventCommand } from './commands/send-test-event/send-test-event.command.js';
export { RedeliverDeliveryCommand } from './commands/redeliver-delivery/redeliver-delivery.command.js';
export { ListWebhooksQuery } from './queries/list-webhooks/list-webhooks.query.js';
export { GetWebhookQuery } from './queries/get-webhook/get-webhook.query.js';
export { ListDeliveriesQuery } from './queries/list-deliveries/list-deliveries.query.js';
export {
  type DeliveryRequestView,
  GetDeliveryRequestQuery,
} from './queries/get-delivery-request/get-delivery-request.query.js';

// Audit: the deliveries replayed from the event store against the retry schedule
export {
  afterAttempt,
  auditDeliveries,
  automaticAttemptBreaks,
  type BreakRule,
  deliveriesAuditFilter,
  type DeliveriesAuditOptions,
  DeliveriesReplay,
  type DeliverySchedule,
  SCHEDULE_TOLERANCE_MS,
  type ScheduleBreak,
  type WebhookAuditLine,
  type WebhookSchedule,
} from './audit/deliveries-audit.js';

// Modules
export {
  WEBHOOK_RESOLVER,
  WebhookChannelModule,
  WebhookEngineModule,
  webhookSecretsFor,
} from './webhook-engine.module.js';
