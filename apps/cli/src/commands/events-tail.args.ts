import { type CommandArgs, parseOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

export type EventsTailCliCommand = {
  kind: 'events-tail';
  stream?: string;
  streamPrefixes: string[];
  typePrefixes: string[];
  from?: number;
  limit?: number;
  follow: boolean;
};

function integerFrom(flag: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} expects an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

export const eventsTail: CommandArgs<EventsTailCliCommand> = {
  name: 'events tail',
  usage: `  events tail [options]          print events as JSON lines:
                                 {position, stream, revision, type, id, created, data}
      --stream S                 only events of stream S
      --stream-prefix P          only streams starting with P (repeatable)
      --type-prefix P            only event types starting with P (repeatable)
      --from POSITION            start at this global position (inclusive); without it,
                                 the last --limit events (default 10)
      --limit N                  print at most N events (with --from: no limit by default)
      --follow                   keep printing new events until interrupted`,
  parse(args) {
    const { values: v, positionals } = parseOptions(args, {
      stream: { type: 'string' },
      'stream-prefix': { type: 'string', multiple: true },
      'type-prefix': { type: 'string', multiple: true },
      from: { type: 'string' },
      limit: { type: 'string' },
      follow: { type: 'boolean', short: 'f' },
    });
    if (positionals.length)
      throw new UsageError(`events tail takes no positional arguments, got ${positionals.join(' ')}`);
    if (v.stream === '') throw new UsageError('--stream expects a stream name');
    return {
      kind: 'events-tail',
      ...(v.stream !== undefined ? { stream: v.stream } : {}),
      streamPrefixes: v['stream-prefix'] ?? [],
      typePrefixes: v['type-prefix'] ?? [],
      ...(v.from !== undefined ? { from: integerFrom('--from', v.from, 1) } : {}),
      ...(v.limit !== undefined ? { limit: integerFrom('--limit', v.limit, 1) } : {}),
      follow: v.follow === true,
    };
  },
};
