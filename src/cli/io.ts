/** What a command needs from the CLI: its streams (already redacting), env, cwd, and the list of secrets to mask. */
export interface CommandIo {
  io: Io;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Push every key the command learns (e.g. from a target) so that all output masks it. */
  secrets: string[];
}

export interface Io {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** For questions on a terminal (conform init); absent or not a TTY: no questions are asked. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}
