import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { decodeOpaqueCursor, encodeOpaqueCursor, Errors, type LoadedSecretBox, SECRET_BOX } from '#kernel';

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
 * The cursor (the service's one opaque form) holds the revision, the balance and a mac, an
 * HMAC-SHA256 of the account, revision and balance. A cursor carries a balance the service
 * vouches for, so a forged one cannot make the running balance lie, and another account's cursor
 * does not open here.
 */
const ledgerCursorBody = z.strictObject({
  r: z.number().int().min(-1).max(Number.MAX_SAFE_INTEGER),
  b: z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  m: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

export function encodeLedgerCursor(secret: Buffer, accountId: string, position: LedgerPosition): string {
  const { revision: r, balanceCents: b } = position;
  return encodeOpaqueCursor({ r, b, m: mac(secret, accountId, r, b) });
}

/** The position of a cursor (LEDGER_START without one); 400 for one this service did not issue to this account. */
export function decodeLedgerCursor(secret: Buffer, accountId: string, cursor: string | undefined): LedgerPosition {
  if (cursor === undefined) return LEDGER_START;
  const body = decodeOpaqueCursor(cursor, ledgerCursorBody);
  if (!body || !timingSafeEqual(Buffer.from(body.m), Buffer.from(mac(secret, accountId, body.r, body.b))))
    throw Errors.validation([{ path: 'query.after', message: 'expected a next_cursor of this account’s ledger' }]);
  return { revision: body.r, balanceCents: body.b };
}

function mac(secret: Buffer, accountId: string, revision: number, balanceCents: number): string {
  return createHmac('sha256', secret).update(`${accountId}.${revision}.${balanceCents}`).digest('base64url');
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
