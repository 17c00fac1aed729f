// chaos appends-sigkill: the event store's appends under SIGKILL, the same
// check as test/eventstore/crash.int.spec.ts (shared function), with more rounds.
// Env: CHAOS_ROUNDS (default 12).
import { appendsUnderSigkill } from '../../eventstore/support/appends-under-sigkill.js';
import { runScenario } from '../support/scenario.js';

const ROUNDS = Number(process.env.CHAOS_ROUNDS ?? 12);

await runScenario('appends-sigkill', 120_000, async (s) => {
  const f = await appendsUnderSigkill(ROUNDS);
  Object.assign(s.figures, { kills: f.rounds, acknowledged: f.acknowledged, stored_whole: f.stored, events: f.events });
});
