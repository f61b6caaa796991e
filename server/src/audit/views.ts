// An audit row as the API, the export and the CLI show it.
import type { AuditRow } from './chain.js';

export interface AuditView {
  seq: number;
  at: string;
  actor_id?: string;
  ip: string;
  user_agent: string;
  instance: string;
  action: string;
  target_type: string;
  target_id: string;
  detail: unknown;
  hash: string;
}

export function toAuditView(row: AuditRow): AuditView {
  let detail: unknown;
  try {
    detail = JSON.parse(row.detail);
  } catch {
    // A row changed by hand in the database: shown as it is (verify names it).
    detail = row.detail;
  }
  return {
    seq: row.seq,
    at: new Date(row.at).toISOString(),
    ...(row.actor_id !== null ? { actor_id: row.actor_id } : {}),
    ip: row.ip,
    user_agent: row.user_agent,
    instance: row.instance,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    detail,
    hash: row.hash,
  };
}

const CSV_COLUMNS = ['seq', 'at', 'actor_id', 'ip', 'user_agent', 'instance', 'action', 'target_type', 'target_id', 'detail', 'hash'] as const;

/**
 * One CSV field (RFC 4180 §2: quoted when it holds a comma, quote or line
 * break; quotes doubled). A value a spreadsheet would run as a formula (it
 * starts with = + - @, a tab or a carriage return: OWASP "CSV injection")
 * gets a leading apostrophe: user agents and typed addresses come from anyone.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

export function csvLine(row: AuditRow): string {
  const v = toAuditView(row);
  const cells = [String(v.seq), v.at, v.actor_id ?? '', v.ip, v.user_agent, v.instance, v.action, v.target_type, v.target_id, row.detail, v.hash];
  return `${cells.map(csvField).join(',')}\r\n`;
}
