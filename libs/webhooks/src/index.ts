// The webhook delivery engine: shared by the platform's /v1/webhooks and, later, the
// agent surface's workspace subscriptions. See docs/adr/0047-webhook-channels.md (and 0040-0046).

// Channels: owners, envelopes, sources
export * from './engine/channel.js';
export * from './engine/webhook.events.js';
export * from './engine/delivery.events.js';
export * from './engine/webhook.decider.js';
export * from './engine/delivery.decider.js';
export * from './engine/retry-schedule.js';
export * from './engine/delivery-id.js';
export * from './engine/signing.js';
export * from './engine/webhook-url.policy.js';
export * from './engine/webhook-input.js';
export * from './engine/webhook.views.js';
export * from './engine/webhooks.projection.js';
export * from './engine/secrets.store.js';
export * from './engine/webhook-channels.js';
export * from './engine/webhook-read-model.js';

// Sending and dispatching
export * from './sending/address-guard.js';
export * from './sending/guarded-lookup.js';
export * from './sending/webhook-sender.js';
export * from './dispatch/delivery-hooks.js';
export * from './dispatch/leases.js';
export * from './dispatch/sqlite-leases.js';
export * from './dispatch/webhook-dispatcher.js';
export * from './dispatch/webhook-dispatchers.js';

// Channel-generic commands and queries
export * from './commands/create-webhook/create-webhook.command.js';
export * from './commands/update-webhook/update-webhook.command.js';
export * from './commands/delete-webhook/delete-webhook.command.js';
export * from './commands/send-test-event/send-test-event.command.js';
export * from './commands/redeliver-delivery/redeliver-delivery.command.js';
export * from './queries/list-webhooks/list-webhooks.query.js';
export * from './queries/get-webhook/get-webhook.query.js';
export * from './queries/list-deliveries/list-deliveries.query.js';
export * from './queries/get-delivery-request/get-delivery-request.query.js';

// Audit: the deliveries replayed from the event store against the retry schedule
export * from './audit/deliveries-audit.js';

// Modules
export * from './webhook-engine.module.js';
