// Names that Windows and macOS clients cannot store (WebDAV mounts, sync
// clients, ZIP extraction). One pure function shared by the server, which
// refuses such names for every new item (server/src/files/name-rules.ts), and
// the web app, which checks them before sending so the reader sees the rule in
// their language and never starts an upload that can only fail
// (web/src/api/rules.ts). It imports nothing: both sides can use it as it is.

/** The rule a name breaks, as a code each side words in its own way. */
export type PortableNameRule = 'reservedDevice' | 'nonPortableChars' | 'trailingDotOrSpace';

export interface PortableNameProblem {
  rule: PortableNameRule;
  /** For reservedDevice: the device name as written (`CON`, `com1`). */
  device?: string;
}

const RESERVED_DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;
const NON_PORTABLE_CHARS = /[<>:"|?*]/;

/** The first portability rule a name breaks, or null. */
export function portableNameRule(name: string): PortableNameProblem | null {
  const device = RESERVED_DEVICE.exec(name);
  if (device) return { rule: 'reservedDevice', device: device[1]! };
  if (NON_PORTABLE_CHARS.test(name)) return { rule: 'nonPortableChars' };
  if (/[. ]$/.test(name)) return { rule: 'trailingDotOrSpace' };
  return null;
}
