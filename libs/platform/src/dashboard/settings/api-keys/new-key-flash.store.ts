import { Injectable } from '@nestjs/common';
import { OneTimeFlashStore } from '#identity';

export interface NewKey {
  keyId: string;
  name: string;
  value: string;
}

/** The one showing of a new key's value (ADR 0069): a one-time flash of kind `api-key`. */
@Injectable()
export class NewKeyFlashStore {
  constructor(private readonly flashes: OneTimeFlashStore) {}

  put(sessionToken: string, key: NewKey): Promise<void> {
    return this.flashes.put('api-key', sessionToken, key);
  }

  take(sessionToken: string): Promise<NewKey | null> {
    return this.flashes.take<NewKey>('api-key', sessionToken);
  }
}
