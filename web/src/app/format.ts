// Sizes and dates in the reader's language (Intl, no library).
import i18n from './i18n';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const nf = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: u === 0 ? 0 : v < 10 ? 1 : 0 });
  return `${nf.format(v)} ${UNITS[u]}`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export function formatNumber(n: number): string {
  return new Intl.NumberFormat(i18n.language).format(n);
}

/** A date with the time to the second: what tells apart two writes within one minute. */
export function formatDateSeconds(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }).format(d);
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** "12 seconds ago", "3 minutes ago", "yesterday", in the reader's language, from `now` (ms). */
export function formatRelative(iso: string, now: number): string {
  const d = Date.parse(iso);
  if (Number.isNaN(d)) return '—';
  let value = (d - now) / 1000;
  const rtf = new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}
