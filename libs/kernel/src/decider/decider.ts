/**
 * A decider (STYLE §3): pure functions over an aggregate's events, with no framework and no I/O.
 * `decide` returns the new events or throws an AppError; time and ids come in with the command.
 */
export interface Decider<Command, Event, State> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export function fold<Event, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
): State {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}

/** Exhaustiveness check for `switch` over a discriminated union. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled variant: ${JSON.stringify(value)}`);
}
