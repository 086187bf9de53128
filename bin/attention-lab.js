#!/usr/bin/env node
// The `attention-lab` command (see bin/cli.js, or run it with --help).
import { environmentStrings, main } from './cli.js';
import { stdoutErrorHandler, stdoutWasClosed } from './io.js';

// A reader that stops early (| head) closes the pipe: the command ends quietly, as Unix tools do;
// any other failure of stdout (> /dev/full) is a message and exit status 1, not a stack trace.
const { t } = await environmentStrings(process.env);
process.stdout.on('error', stdoutErrorHandler({ stderr: process.stderr, name: 'attention-lab', t, exit: (status) => process.exit(status) }));
process.exitCode = await main(process.argv.slice(2), { stdoutClosed: stdoutWasClosed() });
