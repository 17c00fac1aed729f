import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer } from './mailer.port.js';

/** The Mailer over SMTP (SVC_SMTP_URL) through nodemailer: one pooled transport per process. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly settings: { url: string; from: string }) {
    this.transport = createTransport(settings.url);
  }

  async send(mail: { to: string; subject: string; text: string }): Promise<void> {
    await this.transport.sendMail({ from: this.settings.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  close(): void {
    this.transport.close();
  }
}
