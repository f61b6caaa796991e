// The dashboard's overview: counts, what the site runs on, and the last 30
// days of sign-ups and uploads (GET /api/v4/admin/summary).
import { VERSION } from '../version.js';
import type { Counts, ReportRepository } from './report-repository.js';
import type { Clock } from '../core/clock.js';

export const SUMMARY_DAYS = 30;
const DAY_MS = 86_400_000;

export interface DayPoint {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  sign_ups: number;
  uploads: number;
}

export interface Summary extends Counts {
  version: string;
  database: 'sqlite' | 'postgres';
  storage_driver: string;
  days: DayPoint[];
}

export class SummaryService {
  constructor(
    private readonly report: ReportRepository,
    private readonly site: { database: 'sqlite' | 'postgres'; storageDriver: string },
    private readonly clock: Clock,
  ) {}

  async summary(now = this.clock.now()): Promise<Summary> {
    // Today and the 29 UTC days before it.
    const from = Math.floor(now / DAY_MS) * DAY_MS - (SUMMARY_DAYS - 1) * DAY_MS;
    const [counts, signUps, uploads] = await Promise.all([this.report.counts(now), this.report.signUpsPerDay(from), this.report.uploadsPerDay(from)]);
    const days: DayPoint[] = [];
    for (let i = 0; i < SUMMARY_DAYS; i++) {
      days.push({ date: new Date(from + i * DAY_MS).toISOString().slice(0, 10), sign_ups: signUps.get(i) ?? 0, uploads: uploads.get(i) ?? 0 });
    }
    return { ...counts, version: VERSION, database: this.site.database, storage_driver: this.site.storageDriver, days };
  }
}
