// The shape every command shares: its words, its options (node:util parseArgs
// options, each with a help line) and what it runs. The usage text is built
// from these declarations, so `--help` always lists every option there is.
import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** Shown in the usage, e.g. `--user <UID|e-mail>`. */
  value?: string;
  required?: boolean;
  help: string;
}

export interface CommandSpec {
  /** The words that name it: `['user', 'create']`. */
  words: string[];
  summary: string;
  options: Record<string, OptionSpec>;
  /** Positional arguments, e.g. `<client_id>`; empty when none. */
  positionals?: string[];
  run(ctx: CommandContext): Promise<void>;
}

export interface CommandContext {
  config: Config;
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  out: (line: string) => void;
}

export function parseArgsOptions(spec: CommandSpec): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, opt] of Object.entries(spec.options)) options[name] = { type: opt.type, ...(opt.multiple ? { multiple: true } : {}) };
  return options;
}

export function describeCommand(spec: CommandSpec): string {
  const head = ['  ' + spec.words.join(' '), ...(spec.positionals ?? [])].join(' ');
  const lines = [`${head}\n      ${spec.summary}`];
  for (const [name, opt] of Object.entries(spec.options)) {
    const flag = `--${name}${opt.type === 'string' ? ` ${opt.value ?? '<value>'}` : ''}${opt.multiple ? ' (repeatable)' : ''}${opt.required ? '' : ' (optional)'}`;
    lines.push(`      ${flag.padEnd(38)} ${opt.help}`);
  }
  return lines.join('\n');
}
