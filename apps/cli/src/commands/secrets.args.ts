import { type CommandArgs, noArguments } from '../command-options.js';

export const secretsReseal: CommandArgs<{ kind: 'secrets-reseal' }> = {
  name: 'secrets reseal',
  usage: `  secrets reseal                 seal every stored webhook secret with the current key
                                 (SVC_SECRETS_KEY or SVC_DATA_DIR/secrets.key): plaintext ones
                                 from before sealing, and ones sealed with an older key
                                 (SVC_SECRETS_OLD_KEYS); prints {resealed, current, failed}`,
  parse(args) {
    noArguments('secrets reseal', args);
    return { kind: 'secrets-reseal' };
  },
};
