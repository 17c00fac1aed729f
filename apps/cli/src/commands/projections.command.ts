import {
  type CommitInfo,
  type OwnershipLeases,
  type ProjectionRunner,
  type ProjectionStatus,
  projectionJob,
} from '#projections';

/**
 * `svc projections status`: one JSON line per projection (checkpoint, state, lag, rebuild in
 * progress). The CLI runs no projection, so its runner alone would say "stopped" for all: the
 * state is read from the store instead (ADR 0067), from the lease of the process running each
 * projection and the checkpoint it stored. Held lease: "live" when the checkpoint is at the
 * head, else "catching_up"; no lease held: "stopped".
 */
export async function projectionsStatus(
  runner: ProjectionRunner,
  leases: OwnershipLeases,
  write: (line: string) => Promise<void>,
  now: () => number = Date.now,
): Promise<void> {
  const [statuses, recorded] = await Promise.all([runner.status(), leases.list()]);
  const held = new Map(recorded.filter((l) => l.expiresAt > now()).map((l) => [l.job, l]));
  for (const status of statuses) {
    const lease = held.get(projectionJob(status.name));
    const observed: ProjectionStatus = lease
      ? {
          ...status,
          state: status.lag === 0 ? 'live' : 'catching_up',
          owner: {
            id: lease.owner,
            here: false,
            expires_at: new Date(lease.expiresAt).toISOString(),
            term: lease.term,
          },
        }
      : { ...status, state: 'stopped', owner: null };
    await write(JSON.stringify(observed));
  }
}

/**
 * Turns the runner's commit notifications into rebuild progress lines (for stderr), against
 * `head`: the store's head position when the rebuild started, known once the store is open.
 */
export function rebuildProgress(
  write: (line: string) => void,
  head: () => number = () => 0,
): (info: CommitInfo) => void {
  const counted = new Map<string, number>();
  return (info) => {
    if (!info.rebuild) return;
    const events = (counted.get(info.projection) ?? 0) + info.events;
    counted.set(info.projection, events);
    const total = head();
    const of = total > 0 ? ` of ${total} (${Math.min(100, Math.floor((info.position / total) * 100))}%)` : '';
    write(`  ${info.projection}: ${events} events replayed, at position ${info.position}${of}`);
  };
}

/**
 * `svc projections rebuild [name]`: replays from position 0 into a fresh generation and
 * switches readers to it; a server running on the same data follows the switch.
 */
export async function rebuildProjections(
  runner: ProjectionRunner,
  name: string | undefined,
  write: (line: string) => Promise<void>,
): Promise<void> {
  const names = name === undefined ? runner.projections.map((p) => p.name) : [name];
  if (names.length === 0) {
    await write('no projections registered; nothing to rebuild');
    return;
  }
  await write(`rebuilding ${names.join(', ')} from position 0`);
  const results = await runner.rebuild(name);
  for (const r of results) {
    await write(
      `rebuilt ${r.name}: generation ${r.generation}, ${r.events} events in ${r.ms} ms, at position ${r.position}`,
    );
  }
}
