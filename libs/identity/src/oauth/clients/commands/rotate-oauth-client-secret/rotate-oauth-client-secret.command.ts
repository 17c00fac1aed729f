import { Command } from '@nestjs/cqrs';

/** A new secret for a confidential client; the old one stops working at once. */
export class RotateOAuthClientSecretCommand extends Command<{ clientId: string; clientSecret: string }> {
  constructor(readonly input: { accountId: string; clientId: string; by: string }) {
    super();
  }
}
