import { Command } from '@nestjs/cqrs';

/**
 * Mails a single-use reset link to the user of an address, if there is one; says nothing either
 * way (no account enumeration). `baseUrl` is the public URL the link starts with.
 */
export class MailPasswordResetCommand extends Command<void> {
  constructor(readonly input: { email: string; baseUrl: string }) {
    super();
  }
}
