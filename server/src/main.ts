#!/usr/bin/env node
// Command line entry point: `npm run cirrus -- <command>` (see cli/run.ts).
import { runCommand, commandUsage } from './cli/run.js';
import { UsageError } from './cli/errors.js';

runCommand(process.argv.slice(2), (line) => console.log(line)).then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`cirrus: ${err.message}\n\n${commandUsage(err.command)}`);
      process.exit(2);
    }
    // One line naming the cause; never a stack trace.
    console.error(`cirrus: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
