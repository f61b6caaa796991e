// A refused field, read from a 400/40001 envelope. The server names the field
// first (`new_password: must NOT have fewer than 8 characters`, `path: must
// not contain "/", "\" or control characters`); the rule after it is turned
// into a sentence in the reader's language (errors.field.* in the locales),
// so no schema text reaches the screen.
import { ApiError, ErrorCode } from './client';

export type FieldRule = 'tooShort' | 'tooLong' | 'tooLongBytes' | 'nameChars' | 'empty' | 'dots' | 'required' | 'format' | 'min' | 'max' | 'type' | 'path' | 'invalid';

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
];

export function fieldProblem(err: unknown): FieldProblem | null {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.ParamError) return null;
  const m = /^([A-Za-z_][\w.[\]/]*)((?:, [A-Za-z_][\w.[\]/]*)*): (.+)$/.exec(err.message.trim());
  if (!m) return null;
  const field = m[1]!.replace(/^\/?(body|query|params)[./]/, '').replace(/^\//, '');
  const rest = m[3]!;
  for (const [re, rule, param] of RULES) {
    const r = re.exec(rest);
    if (r) return { field, rule, params: param && r[1] ? { [param]: Number(r[1]) } : {} };
  }
  return { field, rule: 'invalid', params: {} };
}
