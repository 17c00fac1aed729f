/** Bad command-line usage: the CLI prints the message and the usage text, and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
