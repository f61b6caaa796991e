// Rules for names beyond names.ts's syntax (issue 23, item 7):
// - the sort key, so that folders list case-insensitively and naturally
//   (`file2` before `file10`), computed here at every write and kept in a
//   column that the keyset pagination orders by;
// - the folded name, one per folder: `Documents` and `documents` cannot be
//   siblings (docs/decisions/025-names-unique-ignoring-case.md);
// - names that Windows and macOS clients cannot store (WebDAV mounts, sync
//   clients, ZIP extraction), refused for every new name.
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

const RESERVED_DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;
const NON_PORTABLE_CHARS = /[<>:"|?*]/;

/** Why a new name would break Windows or macOS clients, or null. */
export function portableNameProblem(name: string): string | null {
  const device = RESERVED_DEVICE.exec(name);
  if (device) return `"${device[1]}" is a reserved device name on Windows (also with an extension)`;
  if (NON_PORTABLE_CHARS.test(name)) return 'must not contain any of < > : " | ? *';
  if (/[. ]$/.test(name)) return 'must not end with a dot or a space';
  return null;
}

/** Throws the invalid-name error (400) for a new name that is not portable. */
export function requirePortableName(name: string, field: string): void {
  const problem = portableNameProblem(name);
  if (problem) throw badRequest(`${field}: ${problem}`);
}
