import { Injectable } from '@nestjs/common';
import { Errors } from '#kernel';
import { channelNames, type ChannelNames, type WebhookChannel } from './channel.js';
import type { DeliveryHooks } from '../dispatch/delivery-hooks.js';

export interface RegisteredChannel {
  channel: WebhookChannel;
  names: ChannelNames;
  hooks?: DeliveryHooks;
}

/** The channels of this app (each registered by `WebhookEngineModule.forChannel`). */
@Injectable()
export class WebhookChannels {
  private readonly byName = new Map<string, RegisteredChannel>();

  add(channel: WebhookChannel, hooks?: DeliveryHooks): RegisteredChannel {
    const existing = this.byName.get(channel.name);
    if (existing && existing.channel !== channel) throw new Error(`Two webhook channels are named ${channel.name}`);
    const registered: RegisteredChannel = { channel, names: channelNames(channel), ...(hooks ? { hooks } : {}) };
    this.byName.set(channel.name, registered);
    return registered;
  }

  get(name: string): RegisteredChannel {
    const found = this.byName.get(name);
    if (!found) throw Errors.internal();
    return found;
  }

  all(): RegisteredChannel[] {
    return [...this.byName.values()];
  }
}
