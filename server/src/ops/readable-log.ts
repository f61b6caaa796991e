// Log lines for people. The server logs pino JSON (one object a line); on a
// terminal (stdout is a TTY, or CIRRUS_LOG_FORMAT=pretty) each line is turned
// into a readable one before it is written:
//
//   09:41:07.123 INFO  req-3 GET /api/v4/user/me 200 1.4 ms  request completed
//
// It formats what pino already wrote, so redaction (app.ts: headers, bodies,
// credential query parameters) has happened before a line gets here. A line
// that is not JSON is written as it came.
import { Writable } from 'node:stream';

export type LogFormat = 'auto' | 'json' | 'pretty';

const LEVELS: Record<number, [name: string, color: string]> = {
  10: ['TRACE', '\x1b[90m'],
  20: ['DEBUG', '\x1b[36m'],
  30: ['INFO ', '\x1b[32m'],
  40: ['WARN ', '\x1b[33m'],
  50: ['ERROR', '\x1b[31m'],
  60: ['FATAL', '\x1b[35m'],
};
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
/** Fields every line has, or that the line's head already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'msg', 'err']);

function clock(time: unknown): string {
  const d = typeof time === 'number' ? new Date(time) : new Date();
  return d.toISOString().slice(11, 23);
}

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v) ?? String(v);
}

/**
 * The method and URL of requests in flight, by request id: Fastify's
 * "request completed" line has no `req`, and the readable line names it
 * again. Bounded: the oldest entry goes first.
 */
export class InFlight {
  private readonly map = new Map<string, string>();
  constructor(private readonly max = 1000) {}
  remember(id: string, what: string): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(id, what);
  }
  take(id: string): string | undefined {
    const what = this.map.get(id);
    this.map.delete(id);
    return what;
  }
}

/** One pino JSON line -> one readable line (without the newline); null when it is not a pino object. */
export function formatLogLine(line: string, color: boolean, inFlight?: InFlight): string | null {
  let o: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    o = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  const paint = (code: string, s: string) => (color ? `${code}${s}${RESET}` : s);
  const [name, code] = LEVELS[o.level as number] ?? [String(o.level ?? '?').padEnd(5), ''];
  const parts = [paint(DIM, clock(o.time)), paint(code, name)];
  const id = typeof o.reqId === 'string' || typeof o.reqId === 'number' ? String(o.reqId) : undefined;
  if (id !== undefined) parts.push(paint(DIM, id));
  const req = o.req as { method?: unknown; url?: unknown } | undefined;
  const res = o.res as { statusCode?: unknown } | undefined;
  const done = res && typeof res === 'object' && res.statusCode !== undefined;
  if (req && typeof req === 'object') {
    const what = `${String(req.method)} ${String(req.url)}`;
    parts.push(what);
    if (id !== undefined && !done) inFlight?.remember(id, what);
  } else if (done && id !== undefined) {
    const what = inFlight?.take(id);
    if (what !== undefined) parts.push(what);
  }
  if (done) parts.push(String(res.statusCode));
  if (typeof o.responseTime === 'number') parts.push(`${o.responseTime.toFixed(1)} ms`);
  if (o.msg !== undefined) parts.push(` ${String(o.msg)}`);
  const rest = Object.keys(o)
    .filter((k) => !SHOWN.has(k))
    .map((k) => `${k}=${value(o[k])}`);
  if (rest.length > 0) parts.push(paint(DIM, rest.join(' ')));
  let out = parts.join(' ');
  const err = o.err as { type?: unknown; message?: unknown; stack?: unknown } | undefined;
  if (err && typeof err === 'object') {
    const stack = typeof err.stack === 'string' ? err.stack : `${String(err.type ?? 'Error')}: ${String(err.message ?? '')}`;
    out += '\n' + stack.replace(/^/gm, '    ');
  }
  return out;
}

/** A stream that takes pino's JSON lines and writes readable ones to `out`. */
export function readableLogStream(out: NodeJS.WritableStream, color: boolean): Writable {
  let pending = '';
  const inFlight = new InFlight();
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let nl: number;
      let text = '';
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line === '') continue;
        text += (formatLogLine(line, color, inFlight) ?? line) + '\n';
      }
      if (text === '') done();
      else out.write(text, () => done());
    },
    final(done) {
      if (pending !== '') out.write((formatLogLine(pending, color, inFlight) ?? pending) + '\n');
      done();
    },
  });
}

/**
 * Where the server's log goes: undefined (pino's own JSON to stdout) or a
 * readable stream. `auto` is readable when stdout is a terminal.
 */
export function logDestination(format: LogFormat, stdout: NodeJS.WriteStream = process.stdout): Writable | undefined {
  const pretty = format === 'pretty' || (format === 'auto' && stdout.isTTY === true);
  if (!pretty) return undefined;
  const color = stdout.isTTY === true && !process.env.NO_COLOR;
  return readableLogStream(stdout, color);
}
