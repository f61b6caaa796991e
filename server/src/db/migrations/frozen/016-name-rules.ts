// The name rules as migration 016 applied them, frozen here. A migration must
// do the same thing forever: files/name-rules.ts may change (a new sort key,
// another folding), and a later migration then rewrites the columns; this
// copy does not follow it. Only 016_natural_names.ts imports this file.

/** The case-folded name: NFC, lower case (Unicode default case mapping). */
export function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * The folded name with every run of digits written as its length (two
 * digits) and its value without leading zeros, so that byte order sorts
 * numbers by value: "file2" -> "file012", "file10" -> "file0210". Runs
 * longer than 99 digits stay as they are.
 */
export function sortKey(name: string): string {
  return foldName(name).replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+(?=\d)/, '');
    return digits.length > 99 ? digits : String(digits.length).padStart(2, '0') + digits;
  });
}
