/** Bad arguments: the CLI prints the message and the verb's usage, and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}
