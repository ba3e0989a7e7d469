import type { Prestarted } from './prestart.ts';
/** What a command needs from the CLI: its streams (already redacting), env and cwd. */
export interface CommandIo {
  io: Io;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Masks these values in all output from now on: a plan's secrets, an embedded reference's keys. */
  mask: (secrets: readonly string[]) => void;
  /** What out and err apply: for files a command writes itself. */
  redact: (text: string) => string;
}

export interface Io {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** For questions on a terminal (conform init); absent or not a TTY: no questions are asked. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** vitest started for the run before the CLI loaded (bin/conform.js). */
  prestarted?: Prestarted;
}
