// The two ways a command fails. A mistyped command (unknown command, unknown
// or missing option) prints the usage and exits 2; anything that goes wrong
// inside a well-formed command prints one line naming the cause and exits 1.

export class UsageError extends Error {
  /** The command whose usage to print; the whole usage when absent. */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

export class CommandError extends Error {}
