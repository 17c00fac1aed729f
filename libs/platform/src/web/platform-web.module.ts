import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { IdentityWebModule } from '#identity';
import { DashboardHomeController } from '../dashboard/home/dashboard-home.http.controller.js';
import { AccountPageController } from '../dashboard/settings/account/account.http.controller.js';
import { AddWebhookPageController } from '../dashboard/settings/webhooks/add-webhook/add-webhook.http.controller.js';
import { DeleteWebhookPageController } from '../dashboard/settings/webhooks/delete-webhook/delete-webhook.http.controller.js';
import { EditWebhookPageController } from '../dashboard/settings/webhooks/edit-webhook/edit-webhook.http.controller.js';
import { ListWebhooksPageController } from '../dashboard/settings/webhooks/list-webhooks/list-webhooks.http.controller.js';
import { RedeliverDeliveryPageController } from '../dashboard/settings/webhooks/redeliver-delivery/redeliver-delivery.http.controller.js';
import { SendTestEventPageController } from '../dashboard/settings/webhooks/send-test-event/send-test-event.http.controller.js';
import { ShowWebhookPageController } from '../dashboard/settings/webhooks/show-webhook/show-webhook.http.controller.js';
import { CreateApiKeyPageController } from '../dashboard/settings/api-keys/create-api-key/create-api-key.http.controller.js';
import { ListApiKeysPageController } from '../dashboard/settings/api-keys/list-api-keys/list-api-keys.http.controller.js';
import { NewKeyFlashStore } from '../dashboard/settings/api-keys/new-key-flash.store.js';
import { RevokeApiKeyPageController } from '../dashboard/settings/api-keys/revoke-api-key/revoke-api-key.http.controller.js';
import { OAuthApplicationsController } from '../dashboard/settings/oauth-applications/oauth-applications.http.controller.js';
import { UsersPageController } from '../dashboard/settings/users/users.http.controller.js';

/**
 * The platform's dashboard and its settings pages (ADR 0069). Signing in, sessions and the
 * account's users are identity's (IdentityWebModule, imported for the session cookie, the guards
 * and the one-time flashes); these pages reach them through the buses.
 */
@Module({
  imports: [CqrsModule.forRoot(), IdentityWebModule],
  controllers: [
    DashboardHomeController,
    ListApiKeysPageController,
    CreateApiKeyPageController,
    RevokeApiKeyPageController,
    AccountPageController,
    ListWebhooksPageController,
    AddWebhookPageController,
    ShowWebhookPageController,
    EditWebhookPageController,
    DeleteWebhookPageController,
    SendTestEventPageController,
    RedeliverDeliveryPageController,
    UsersPageController,
    OAuthApplicationsController,
  ],
  providers: [NewKeyFlashStore],
})
export class PlatformWebModule {}
