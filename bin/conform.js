#!/usr/bin/env node
// Thin shim: load TypeScript sources through tsx, then hand over to the CLI.
import { register } from 'tsx/esm/api';

// Until the CLI installs its own handlers, nothing has been changed: a signal just ends the process
// with "no verdict". Once another handler is installed this one steps aside.
const beforeStart = (signal) => {
  if (process.listenerCount(signal) > 1) return;
  process.stderr.write(`conform: ${signal} before any check ran; nothing was changed\n`);
  process.exit(3);
};
process.on('SIGINT', beforeStart);
process.on('SIGTERM', beforeStart);

/**
 * A reader that goes away (`conform --list | head -1`) closes the pipe: from then on output to it is
 * dropped instead of crashing with EPIPE. The command itself goes on, so a run still restores what it
 * changed and still ends with its verdict's exit code.
 */
function closable(stream) {
  let closed = false;
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return {
    get isTTY() {
      return stream.isTTY;
    },
    write: (text) => (closed ? true : stream.write(text)),
  };
}

// vitest is loaded before tsx's hooks are registered: under them each of its many modules pays a
// round trip to the hooks thread, which made start-up seconds slower.
await import('vitest/node');
register();
// A run's vitest starts now, while the rest of the CLI loads (src/cli/prestart.ts).
const { prestart } = await import('../src/cli/prestart.ts');
const prestarted = prestart(process.argv.slice(2));
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  stdout: closable(process.stdout),
  stderr: closable(process.stderr),
  env: process.env,
  cwd: process.cwd(),
  prestarted,
  get stdin() {
    return process.stdin; // created only when a command asks (init on a terminal)
  },
});
await prestarted?.release();
