// The server's field rules the forms check before sending, so a person sees
// the problem next to the field, in their language, without a round trip.
// Values come from the OpenAPI document (generated/openapi.json); the browser
// test server/test/browser/field-errors.test.ts fails when they drift apart.
import { portableNameRule, type PortableNameRule } from '../../../shared/portable-names';

/** `new_password` of PATCH /api/v4/user/setting (and every other new password). */
export const PASSWORD = { minLength: 8, maxLength: 128 } as const;

/**
 * A file or folder name (server/src/files/names.ts; the same characters as
 * `name` of POST /api/v4/file/archive): no "/", "\" or control characters,
 * not "." or "..", at most 255 bytes of UTF-8.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what the rule refuses
export const NAME = { maxBytes: 255, forbidden: /[/\\\u0000-\u001f\u007f]/ } as const;

export type NameRule = 'empty' | 'slash' | 'dots' | 'long' | PortableNameRule;

export interface NameProblem {
  rule: NameRule;
  /** For reservedDevice: the device name as written. */
  device?: string;
}

/**
 * The first rule a new name breaks, or null: the contract's syntax (§6),
 * then the server's own portability rule (shared/portable-names.ts, the same
 * function the server runs), so a name the server can never accept is
 * refused here, in the reader's language, before anything is sent.
 */
export function nameProblem(name: string): NameProblem | null {
  if (name.trim() === '') return { rule: 'empty' };
  if (NAME.forbidden.test(name)) return { rule: 'slash' };
  if (name === '.' || name === '..') return { rule: 'dots' };
  if (new TextEncoder().encode(name).length > NAME.maxBytes) return { rule: 'long' };
  return portableNameRule(name.normalize('NFC'));
}

/** The first name of a relative path ("a/b/c.txt") that breaks a rule, with the problem. */
export function pathNameProblem(relative: string): (NameProblem & { name: string }) | null {
  for (const name of relative.split('/')) {
    const problem = nameProblem(name);
    if (problem) return { ...problem, name };
  }
  return null;
}
