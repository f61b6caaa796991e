// Human units for bytes and durations, and their parsing back, for the
// dashboard's forms and tables.
export const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
export type ByteUnit = (typeof BYTE_UNITS)[number];

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–';
  let i = 0;
  let v = n;
  while (v >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${BYTE_UNITS[i]}`;
}

/** The largest unit that shows the value as a whole number (1 GB, not 1024 MB). */
export function splitBytes(n: number): { value: number; unit: ByteUnit } {
  let i = 0;
  while (i < BYTE_UNITS.length - 1 && n >= 1024 && n % 1024 === 0) {
    n /= 1024;
    i++;
  }
  return { value: n, unit: BYTE_UNITS[i]! };
}

export function toBytes(value: number, unit: ByteUnit): number {
  return Math.round(value * 1024 ** BYTE_UNITS.indexOf(unit));
}

export const DURATION_UNITS = { minutes: 60, hours: 3600, days: 86400 } as const;
export type DurationUnit = keyof typeof DURATION_UNITS;

export function splitSeconds(s: number): { value: number; unit: DurationUnit } {
  if (s % 86400 === 0) return { value: s / 86400, unit: 'days' };
  if (s % 3600 === 0) return { value: s / 3600, unit: 'hours' };
  return { value: Math.round(s / 60), unit: 'minutes' };
}

export function formatDate(iso: string | null | undefined, lang: string): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
}
