import { Inject, Optional } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { MAILER, type Mailer } from '../../password-reset/mailer.port.js';
import { resetLink } from '../../password-reset/password-reset-link.js';
import { IssuePasswordResetCommand } from '../issue-password-reset/issue-password-reset.command.js';
import { MailPasswordResetCommand } from './mail-password-reset.command.js';

/** Issues the token the way the CLI does (IssuePasswordResetCommand), then mails the link. */
@CommandHandler(MailPasswordResetCommand)
export class MailPasswordResetHandler implements ICommandHandler<MailPasswordResetCommand, void> {
  constructor(
    private readonly commands: CommandBus,
    @Optional() @Inject(MAILER) private readonly mailer: Mailer | null,
  ) {}

  async execute({ input }: MailPasswordResetCommand): Promise<void> {
    // Without mail the page never sends this; nothing to issue a token for either.
    if (!this.mailer) return;
    const issued = await this.commands.execute(new IssuePasswordResetCommand({ email: input.email }));
    if (!issued) return;
    const link = resetLink(input.baseUrl, issued.token);
    await this.mailer.send({
      to: issued.email,
      subject: 'Reset your password',
      text: `Someone asked to reset the password of ${issued.email}.\n\nTo choose a new password, open this link (it works once, until ${issued.expiresAt}):\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
    });
  }
}
