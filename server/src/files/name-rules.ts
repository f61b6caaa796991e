// Rules for names beyond names.ts's syntax (issue 23, item 7):
// - the sort key, so that folders list case-insensitively and naturally
//   (`file2` before `file10`), computed here at every write and kept in a
//   column that the keyset pagination orders by;
// - the folded name, one per folder: `Documents` and `documents` cannot be
//   siblings (docs/decisions/025-names-unique-ignoring-case.md);
// - names that Windows and macOS clients cannot store (WebDAV mounts, sync
//   clients, ZIP extraction), refused for every new name.
import { portableNameRule } from '../../../shared/portable-names.js';
import { badRequest } from '../core/errors.js';

/** The case-folded name: NFC, lower case (Unicode default case mapping). */
export function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * The folded name with every run of digits written as its length (two
 * digits) and its value without leading zeros, so that byte order sorts
 * numbers by value: "file2" -> "file012", "file10" -> "file0210". Runs
 * longer than 99 digits stay as they are. Ties (`a01`, `a1`, `A1`) are
 * broken by the name itself.
 */
export function sortKey(name: string): string {
  return foldName(name).replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+(?=\d)/, '');
    return digits.length > 99 ? digits : String(digits.length).padStart(2, '0') + digits;
  });
}

/**
 * Why a new name would break Windows or macOS clients, or null. The rule is
 * shared with the web app (shared/portable-names.ts); this English text is
 * the API's, and the web app recognises it (api/fieldErrors.ts) to word a
 * refusal in the reader's language.
 */
export function portableNameProblem(name: string): string | null {
  const problem = portableNameRule(name);
  if (!problem) return null;
  switch (problem.rule) {
    case 'reservedDevice':
      return `"${problem.device}" is a reserved device name on Windows (also with an extension)`;
    case 'nonPortableChars':
      return 'must not contain any of < > : " | ? *';
    case 'trailingDotOrSpace':
      return 'must not end with a dot or a space';
  }
}

/** Throws the invalid-name error (400) for a new name that is not portable. */
export function requirePortableName(name: string, field: string): void {
  const problem = portableNameProblem(name);
  if (problem) throw badRequest(`${field}: ${problem}`);
}
