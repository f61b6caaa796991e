/** Parses "90s", "15m", "1h", "7d" (or a bare number of seconds) into seconds, from 1 s up to `maxSeconds`. */
export function parseDuration(text: string, maxSeconds = 366 * 86400): number {
  const m = /^(\d+)\s*([smhd]?)$/.exec(text.trim());
  if (!m) throw new Error(`bad duration ${text}: use e.g. 90s, 15m, 1h, 7d`);
  const n = Number(m[1]);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  const seconds = n * unit;
  if (seconds < 1 || seconds > maxSeconds) throw new Error(`duration must be between 1 s and ${describe(maxSeconds)}`);
  return seconds;
}

function describe(seconds: number): string {
  if (seconds % 86400 === 0 && seconds > 86400) return `${seconds / 86400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  return `${seconds} s`;
}
