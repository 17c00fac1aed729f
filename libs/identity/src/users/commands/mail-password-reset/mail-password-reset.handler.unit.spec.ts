import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandBus } from '@nestjs/cqrs';
import type { Mailer } from '../../password-reset/mailer.port.js';
import type { IssuedPasswordReset } from '../issue-password-reset/issue-password-reset.command.js';
import { IssuePasswordResetCommand } from '../issue-password-reset/issue-password-reset.command.js';
import { MailPasswordResetCommand } from './mail-password-reset.command.js';
import { MailPasswordResetHandler } from './mail-password-reset.handler.js';

/** A bus that issues a token for one known address, recording what it was asked. */
function bus(known: IssuedPasswordReset | null) {
  const asked: string[] = [];
  const commands = {
    execute: async (command: unknown) => {
      assert.ok(command instanceof IssuePasswordResetCommand);
      asked.push(command.input.email);
      return known && command.input.email === known.email ? known : null;
    },
  } as unknown as CommandBus;
  return { commands, asked };
}

function mailer() {
  const sent: Array<{ to: string; subject: string; text: string }> = [];
  return { mailer: { send: async (mail) => void sent.push(mail) } satisfies Mailer, sent };
}

const issued: IssuedPasswordReset = {
  userId: 'usr_1',
  email: 'ada@example.com',
  token: 'tok/en+1',
  expiresAt: '2026-01-01T01:00:00.000Z',
};
const command = (email: string) => new MailPasswordResetCommand({ email, baseUrl: 'https://svc.example' });

describe('MailPasswordResetHandler', () => {
  it('mails the user of a known address a link to the reset page on the public URL', async () => {
    const { commands } = bus(issued);
    const { mailer: m, sent } = mailer();
    await new MailPasswordResetHandler(commands, m).execute(command('ada@example.com'));
    assert.equal(sent.length, 1);
    assert.equal(sent[0].to, 'ada@example.com');
    assert.equal(sent[0].subject, 'Reset your password');
    assert.match(sent[0].text, /https:\/\/svc\.example\/password\/reset\?token=tok%2Fen%2B1\n/);
    assert.match(sent[0].text, /until 2026-01-01T01:00:00\.000Z/);
  });

  it('sends nothing for an address no user has', async () => {
    const { commands, asked } = bus(issued);
    const { mailer: m, sent } = mailer();
    await new MailPasswordResetHandler(commands, m).execute(command('nobody@example.com'));
    assert.deepEqual(asked, ['nobody@example.com']);
    assert.equal(sent.length, 0);
  });

  it('without a mailer issues no token at all', async () => {
    const { commands, asked } = bus(issued);
    await new MailPasswordResetHandler(commands, null).execute(command('ada@example.com'));
    assert.deepEqual(asked, []);
  });
});
