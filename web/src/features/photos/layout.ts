// The Photos grid as rows for the virtualiser: a heading per day, then rows of
// `cols` square tiles, and below what is loaded, placeholder rows for the items
// not loaded yet (so the scrollbar spans all there is, and scrolling there
// loads it).
import type { PhotoItem } from './api';

/**
 * The day an item belongs to, as YYYY-MM-DD. A date taken is the clock time
 * where the picture was taken (RFC 3339 with the offset the camera wrote, or
 * read as UTC when it wrote none), so its calendar date is taken as written:
 * a photo from 23:30 in Tokyo is on that day wherever it is looked at. Without
 * one, the day is when it was stored, in the reader's time zone.
 */
export function dayOf(item: Pick<PhotoItem, 'taken_at' | 'created_at'>): string {
  const m = item.taken_at ? /^(\d{4}-\d{2}-\d{2})/.exec(item.taken_at) : null;
  if (m) return m[1]!;
  const d = new Date(item.created_at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export type Row =
  | { kind: 'day'; day: string; count: number }
  | { kind: 'tiles'; day: string; start: number; end: number }
  | { kind: 'placeholder' };

export const DAY_ROW_HEIGHT = 48;

/**
 * Rows for `items` (newest first) in `cols` columns: consecutive items of one
 * day form one group. `pending` placeholder items follow when more pages exist.
 */
export function layoutRows(items: Pick<PhotoItem, 'taken_at' | 'created_at'>[], cols: number, pending: number): { rows: Row[]; rowOfItem: number[] } {
  const rows: Row[] = [];
  const rowOfItem: number[] = new Array<number>(items.length);
  let i = 0;
  while (i < items.length) {
    const day = dayOf(items[i]!);
    let end = i + 1;
    while (end < items.length && dayOf(items[end]!) === day) end++;
    rows.push({ kind: 'day', day, count: end - i });
    for (let s = i; s < end; s += cols) {
      const e = Math.min(end, s + cols);
      for (let k = s; k < e; k++) rowOfItem[k] = rows.length;
      rows.push({ kind: 'tiles', day, start: s, end: e });
    }
    i = end;
  }
  for (let p = 0; p < Math.ceil(pending / cols); p++) rows.push({ kind: 'placeholder' });
  return { rows, rowOfItem };
}

/** Columns for a grid `width` pixels wide: tiles of about 180 px on a desktop, never fewer than 3. */
export function columnsFor(width: number): number {
  return Math.max(3, Math.round(width / 180));
}

/** A video's length as m:ss or h:mm:ss. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
