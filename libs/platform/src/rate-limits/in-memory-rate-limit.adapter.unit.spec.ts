import { rateLimitStoreContract } from '#testing';
import { InMemoryRateLimitStore } from './in-memory-rate-limit.adapter.js';

rateLimitStoreContract('in-memory', async () => ({ store: new InMemoryRateLimitStore(), cleanup: async () => {} }));
