/**
 * Bad command-line usage: the CLI prints the message and a usage text, and exits 2. `usage` is
 * the text of the one command the user probably meant (all of it when unset).
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
