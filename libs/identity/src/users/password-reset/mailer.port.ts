/** Sends the service's few mails (password reset links). Bound by MAILER; null when no mail is configured. */
export interface Mailer {
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}

export const MAILER = Symbol('MAILER');
