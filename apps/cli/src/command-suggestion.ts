/**
 * "Did you mean": the nearest commands of the command table (command-table.ts) to words that
 * name none, with their usage entries; a command added to the table is suggested with no list
 * to keep in step.
 */
export interface UsageEntry {
  /** The command's words, e.g. `companies import`. */
  readonly command: string;
  /** The entry's lines: its synopsis, description and options. */
  readonly text: string;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * The group the user probably meant by an unknown first word, with the usage of its matching
 * commands: `import` is the action of `companies import`; `projection` is a typo of
 * `projections`. Undefined when nothing is close.
 */
export function suggestCommand(
  entries: readonly UsageEntry[],
  words: readonly string[],
): { commands: string[]; usage: string } | undefined {
  const [first = '', second] = words;
  const group = (e: UsageEntry) => e.command.split(' ')[0]!;
  const action = (e: UsageEntry) => e.command.split(' ').slice(1).join(' ');
  // `svc import`: a known action without its group.
  let matches = entries.filter((e) => action(e) === first || action(e) === [first, second].join(' '));
  if (matches.length === 0) {
    const groups = [...new Set(entries.map(group))];
    const best = groups
      .map((g) => ({ g, d: distance(first, g) }))
      .filter(({ g, d }) => d <= Math.max(1, Math.floor(g.length / 4)))
      .sort((a, b) => a.d - b.d)[0];
    if (best) {
      matches = entries.filter((e) => group(e) === best.g);
      const exact = matches.filter((e) => action(e) === second);
      if (exact.length) matches = exact;
    }
  }
  if (matches.length === 0) return undefined;
  return { commands: matches.map((e) => e.command), usage: matches.map((e) => e.text).join('\n') };
}
