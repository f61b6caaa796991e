// The server's field rules the forms check before sending, so a person sees
// the problem next to the field, in their language, without a round trip.
// Values come from the OpenAPI document (generated/openapi.json); the browser
// test server/test/browser/field-errors.test.ts fails when they drift apart.

/** `new_password` of PATCH /api/v4/user/setting (and every other new password). */
export const PASSWORD = { minLength: 8, maxLength: 128 } as const;

/**
 * A file or folder name (server/src/files/names.ts; the same characters as
 * `name` of POST /api/v4/file/archive): no "/", "\" or control characters,
 * not "." or "..", at most 255 bytes of UTF-8.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what the rule refuses
export const NAME = { maxBytes: 255, forbidden: /[/\\\u0000-\u001f\u007f]/ } as const;

export type NameProblem = 'empty' | 'slash' | 'dots' | 'long';

export function nameProblem(name: string): NameProblem | null {
  if (name.trim() === '') return 'empty';
  if (NAME.forbidden.test(name)) return 'slash';
  if (name === '.' || name === '..') return 'dots';
  if (new TextEncoder().encode(name).length > NAME.maxBytes) return 'long';
  return null;
}
