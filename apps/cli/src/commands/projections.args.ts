import { type CommandArgs, noArguments, parseOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

export type ProjectionsCliCommand = { kind: 'projections-status' } | { kind: 'projections-rebuild'; name?: string };

export const projectionsStatus: CommandArgs<Extract<ProjectionsCliCommand, { kind: 'projections-status' }>> = {
  name: 'projections status',
  usage: `  projections status             one JSON line per projection: checkpoint, state, lag`,
  parse(args) {
    noArguments('projections status', args);
    return { kind: 'projections-status' };
  },
};

export const projectionsRebuild: CommandArgs<Extract<ProjectionsCliCommand, { kind: 'projections-rebuild' }>> = {
  name: 'projections rebuild',
  usage: `  projections rebuild [NAME]     replay from position 0 into fresh collections, then switch
                                 (every projection, or only NAME); progress on stderr`,
  parse(args) {
    const { positionals } = parseOptions(args, {});
    if (positionals.length > 1) throw new UsageError('projections rebuild takes at most one projection name');
    return positionals[0] === undefined
      ? { kind: 'projections-rebuild' }
      : { kind: 'projections-rebuild', name: positionals[0] };
  },
};
