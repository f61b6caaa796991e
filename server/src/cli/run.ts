// The command dispatcher: finds the command by its words, parses its options
// strictly, and turns failures into exit codes (2: mistyped, with the usage;
// 1: failed inside, one line).
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { describeCommand, parseArgsOptions, type CommandSpec } from './command.js';
import { UsageError } from './errors.js';
import { siteCommands } from './site-commands.js';
import { userCommands } from './user-commands.js';
import { tokenCommands } from './token-command.js';
import { appCommands } from './app-commands.js';
import { searchCommands } from './search-commands.js';
import { auditCommands } from './audit-commands.js';

export const COMMANDS: CommandSpec[] = [...siteCommands, ...userCommands, ...tokenCommands, ...appCommands, ...searchCommands, ...auditCommands];

const CONFIG_HELP = `Configuration (environment variables, or a JSON file named by CIRRUS_CONFIG):
  CIRRUS_PORT, CIRRUS_HOST, CIRRUS_DATA_DIR, CIRRUS_DATABASE_URL, CIRRUS_BASE_URL,
  CIRRUS_ADMIN_EMAIL, CIRRUS_ADMIN_PASSWORD, CIRRUS_LOG_LEVEL, CIRRUS_TRUST_PROXY.
  See README.md for each one's meaning and default.`;

export function usage(command?: CommandSpec): string {
  if (command) return `Usage: npm run cirrus -- ${command.words.join(' ')} [options]\n\n${describeCommand(command)}`;
  return `Usage: npm run cirrus -- <command> [options]\n\nCommands:\n${COMMANDS.map(describeCommand).join('\n\n')}\n\n${CONFIG_HELP}`;
}

function findCommand(argv: string[]): { spec: CommandSpec; rest: string[] } | undefined {
  // Longest match first: `user create` before a hypothetical `user`.
  const sorted = [...COMMANDS].sort((a, b) => b.words.length - a.words.length);
  for (const spec of sorted) {
    if (spec.words.every((w, i) => argv[i] === w)) return { spec, rest: argv.slice(spec.words.length) };
  }
  return undefined;
}

/** Runs one command line; resolves when a one-shot command is done (serve never resolves). */
export async function runCommand(argv: string[], out: (line: string) => void): Promise<void> {
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0]!)) {
    out(usage());
    return;
  }
  const found = findCommand(argv);
  if (!found) throw new UsageError(`unknown command: ${argv.join(' ')}`);
  const { spec, rest } = found;
  if (rest.includes('--help') || rest.includes('-h')) {
    out(usage(spec));
    return;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: parseArgsOptions(spec), allowPositionals: (spec.positionals ?? []).length > 0, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message, spec.words.join(' '));
  }
  const expected = spec.positionals ?? [];
  if (parsed.positionals.length !== expected.length) {
    throw new UsageError(`${spec.words.join(' ')} takes ${expected.length === 0 ? 'no arguments' : expected.join(' ')}`, spec.words.join(' '));
  }
  const missing = Object.entries(spec.options)
    .filter(([name, opt]) => opt.required && parsed.values[name] === undefined)
    .map(([name]) => `--${name}`);
  if (missing.length > 0) throw new UsageError(`${spec.words.join(' ')} needs ${missing.join(' and ')}`, spec.words.join(' '));
  // Read after the command line is known to be well formed: a bad setting is an error inside the command.
  const config = loadConfig();
  await spec.run({ config, values: parsed.values, positionals: parsed.positionals, out });
}

export function commandUsage(words: string | undefined): string {
  const spec = words ? COMMANDS.find((c) => c.words.join(' ') === words) : undefined;
  return usage(spec);
}
