import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Errors, type LoadedSecretBox, SECRET_BOX } from '#kernel';

/**
 * Where a page of GET /billing/ledger ended: the revision of its last entry (-1 before the first)
 * and the balance right after it, so the next page's running balance starts there without
 * refolding the account's history.
 */
export interface LedgerPosition {
  revision: number;
  balanceCents: number;
}

export const LEDGER_START: LedgerPosition = Object.freeze({ revision: -1, balanceCents: 0 });

/**
 * The cursor is opaque: base64url of `{revision}.{balance}.{mac}`, the mac an HMAC-SHA256 of the
 * account, revision and balance. A cursor carries a balance the service vouches for, so a forged
 * one cannot make the running balance lie, and another account's cursor does not open here.
 */
export function encodeLedgerCursor(secret: Buffer, accountId: string, position: LedgerPosition): string {
  const body = `${position.revision}.${position.balanceCents}`;
  return Buffer.from(`${body}.${mac(secret, accountId, body)}`).toString('base64url');
}

/** The position of a cursor (LEDGER_START without one); 400 for one this service did not issue to this account. */
export function decodeLedgerCursor(secret: Buffer, accountId: string, cursor: string | undefined): LedgerPosition {
  if (cursor === undefined) return LEDGER_START;
  const match = /^(-1|\d{1,15})\.(-?\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(Buffer.from(cursor, 'base64url').toString());
  const expected = match ? Buffer.from(mac(secret, accountId, `${match[1]}.${match[2]}`)) : null;
  if (!match || !expected || !timingSafeEqual(Buffer.from(match[3]!), expected))
    throw Errors.validation([{ path: 'query.after', message: 'expected a next_cursor of this account’s ledger' }]);
  return { revision: Number(match[1]), balanceCents: Number(match[2]) };
}

function mac(secret: Buffer, accountId: string, body: string): string {
  return createHmac('sha256', secret).update(`${accountId}.${body}`).digest('base64url');
}

/** The cursors of this deployment: the key is derived from the secrets key (a rotation voids old cursors). */
@Injectable()
export class LedgerCursors {
  private readonly secret: Buffer;

  constructor(@Inject(SECRET_BOX) secrets: LoadedSecretBox) {
    this.secret = secrets.box.derive('ledger-cursor-v1');
  }

  encode(accountId: string, position: LedgerPosition): string {
    return encodeLedgerCursor(this.secret, accountId, position);
  }

  decode(accountId: string, cursor: string | undefined): LedgerPosition {
    return decodeLedgerCursor(this.secret, accountId, cursor);
  }
}
