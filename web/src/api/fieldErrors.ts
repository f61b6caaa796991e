// A refused field, read from a 400/40001 envelope. The server names the field
// first (`new_password: must NOT have fewer than 8 characters`, `path: must
// not contain "/", "\" or control characters`); the rule after it is turned
// into a sentence in the reader's language (errors.field.* in the locales),
// so no schema text reaches the screen.
import type { PortableNameRule } from '../../../shared/portable-names';
import { ApiError, ErrorCode } from './client';

export type FieldRule = 'tooShort' | 'tooLong' | 'tooLongBytes' | 'nameChars' | 'empty' | 'dots' | 'required' | 'format' | 'min' | 'max' | 'type' | 'path' | 'invalid' | PortableNameRule;

export interface FieldProblem {
  /** The field as the server names it (the first one when it names several). */
  field: string;
  rule: FieldRule;
  params: Record<string, number | string>;
}

const RULES: [RegExp, FieldRule, string?][] = [
  [/^must NOT have fewer than (\d+) (characters|items)/, 'tooShort', 'min'],
  [/^must NOT have more than (\d+) (characters|items)/, 'tooLong', 'max'],
  [/^must be at most (\d+) bytes/, 'tooLongBytes', 'max'],
  [/^must not contain "\/", "\\"/, 'nameChars'],
  [/^must not be empty/, 'empty'],
  [/^must not be "\." or "\.\."/, 'dots'],
  [/^must have required property/, 'required'],
  [/^must match (pattern|format)/, 'format'],
  [/^must be >=? (\d+)/, 'min', 'min'],
  [/^must be <=? (\d+)/, 'max', 'max'],
  [/^must be (integer|number|string|boolean|array|object|equal to one of)/, 'type'],
  [/^must (be an absolute path|not contain empty segments)/, 'path'],
  // The portability rule's text (server/src/files/name-rules.ts).
  [/^"([^"]+)" is a reserved device name/, 'reservedDevice', 'device'],
  [/^must not contain any of < > :/, 'nonPortableChars'],
  [/^must not end with a dot or a space/, 'trailingDotOrSpace'],
];

export function fieldProblem(err: unknown): FieldProblem | null {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.ParamError) return null;
  return problemOfMessage(err.message);
}

/** The field and rule of a refusal's text ("field: rule"), wherever it came from (an envelope, a per-path result). */
export function problemOfMessage(message: string): FieldProblem | null {
  const m = /^([A-Za-z_][\w.[\]/]*)((?:, [A-Za-z_][\w.[\]/]*)*): (.+)$/.exec(message.trim());
  if (!m) return null;
  const field = m[1]!.replace(/^\/?(body|query|params)[./]/, '').replace(/^\//, '');
  const rest = m[3]!;
  for (const [re, rule, param] of RULES) {
    const r = re.exec(rest);
    if (r) return { field, rule, params: param && r[1] ? { [param]: /^\d+$/.test(r[1]) ? Number(r[1]) : r[1] } : {} };
  }
  return { field, rule: 'invalid', params: {} };
}
