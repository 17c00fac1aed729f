import { promises as dns } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { BlockedAddressError, nonPublicReason } from './address-guard.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution, injectable (tests make a name resolve to a private address). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` (through http.request) that resolves the name and refuses the
 * connection when any address it got is not public (D14): the socket then connects only to an
 * address this function checked, so a DNS answer that changes between checks (rebinding) cannot
 * slip a private address in. With `allowPrivate` it only resolves.
 */
export function guardedLookup(resolver: Resolver, allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolver(hostname).then(
      (addresses) => {
        let usable = addresses;
        if (options.family === 4 || options.family === 6) usable = addresses.filter((a) => a.family === options.family);
        if (usable.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        if (!allowPrivate) {
          // Every answer must be public, not just the first: the socket may try them all.
          for (const a of addresses) {
            const reason = nonPublicReason(a.address);
            if (reason) {
              callback(new BlockedAddressError(hostname, a.address, reason), '');
              return;
            }
          }
        }
        if (options.all)
          callback(
            null,
            usable.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
