import assert from 'node:assert/strict';
import type { Decider } from '../decider/decider.js';
import { fold } from '../decider/decider.js';

/**
 * given / when / then for deciders (after emmett's DeciderSpecification):
 *   spec.given([pastEvents]).when(command).then([newEvents])
 *   spec.given([]).when(command).thenThrows((e) => e.code === 'X')
 */
export function deciderSpec<Command, Event, State>(decider: Decider<Command, Event, State>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, fold(decider, events));
          return {
            then(expected: Event[]): void {
              assert.deepStrictEqual(run(), expected);
            },
            thenThrows(check: (error: any) => boolean): void {
              assert.throws(run, (e: unknown) => {
                assert.ok(check(e), `unexpected error: ${String((e as Error)?.message ?? e)}`);
                return true;
              });
            },
          };
        },
      };
    },
  };
}
