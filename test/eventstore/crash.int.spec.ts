import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appendsUnderSigkill } from './support/appends-under-sigkill.js';

const ROUNDS = 6;

describe('SqliteEventStore survives SIGKILL under load', () => {
  it(`loses no acknowledged append and tears none, over ${ROUNDS} kills`, async () => {
    // Same file every round: each reopen also recovers the WAL the previous kill left behind.
    const figures = await appendsUnderSigkill(ROUNDS);
    assert.ok(figures.stored >= figures.acknowledged);
  });
});
