import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SunkMail {
  from: string;
  to: string[];
  /** The message as sent (headers and body, dot-stuffing undone). */
  data: string;
}

/**
 * A local SMTP sink for tests: speaks just enough SMTP (RFC 5321: EHLO, MAIL, RCPT, DATA, RSET,
 * NOOP, QUIT; no STARTTLS, no AUTH) to take a client's mail and keep it.
 */
export class SmtpSink {
  readonly mails: SunkMail[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpSink> {
    const sessions: { sink?: SmtpSink } = {};
    const server = createServer((socket) => sessions.sink?.session(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sessions.sink = new SmtpSink(server, (server.address() as AddressInfo).port);
    return sessions.sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  private session(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let mail: SunkMail = { from: '', to: [], data: '' };
    let inData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buffer = buffer.slice(end + 5);
          inData = false;
          this.mails.push(mail);
          mail = { from: '', to: [], data: '' };
          reply('250 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') mail.from = line.slice(10).trim();
        if (verb === 'RCPT') mail.to.push(line.slice(8).trim());
        if (verb === 'DATA') inData = true;
        reply(verb === 'DATA' ? '354 go on' : verb === 'QUIT' ? '221 bye' : '250 ok');
        if (verb === 'QUIT') socket.end();
      }
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
