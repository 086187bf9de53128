#!/usr/bin/env node
// The `attention-lab` command (see bin/cli.js, or run it with --help).
import { main } from './cli.js';

process.exitCode = await main(process.argv.slice(2));
