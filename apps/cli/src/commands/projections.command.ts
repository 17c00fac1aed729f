import type { CommitInfo, ProjectionRunner } from '#projections';

/** `svc projections status`: one JSON line per projection (checkpoint, state, lag, rebuild in progress). */
export async function projectionsStatus(
  runner: ProjectionRunner,
  write: (line: string) => Promise<void>,
): Promise<void> {
  for (const status of await runner.status()) await write(JSON.stringify(status));
}

/** Turns the runner's commit notifications into rebuild progress lines. */
export function rebuildProgress(write: (line: string) => void): (info: CommitInfo) => void {
  const counted = new Map<string, number>();
  return (info) => {
    if (!info.rebuild) return;
    const events = (counted.get(info.projection) ?? 0) + info.events;
    counted.set(info.projection, events);
    write(`  ${info.projection}: ${events} events replayed, at position ${info.position}`);
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
