#!/usr/bin/env node
// The `attention-lab` command (see bin/cli.js, or run it with --help).
import { main } from './cli.js';
import { stdoutWasClosed } from './io.js';

// A reader that stops early (| head) closes the pipe: the command ends quietly, as Unix tools do.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
process.exitCode = await main(process.argv.slice(2), { stdoutClosed: stdoutWasClosed() });
