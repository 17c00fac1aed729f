import { Query } from '@nestjs/cqrs';

/** Whether this deployment mails reset links (SVC_SMTP_URL set); otherwise an operator issues them. */
export class CanMailPasswordResetQuery extends Query<boolean> {}
