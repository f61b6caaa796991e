// Values no database column can hold are refused at the boundary, for every
// route, before any handler or query sees them: PostgreSQL rejects NUL in text
// ("invalid byte sequence") and integers past BIGINT, and answered 500 where
// SQLite stored or compared them. Two generic rules, so no route can forget:
//  - a preValidation hook walks params, query and the parsed body (JSON,
//    form, the OAuth form's Map) and refuses any key or string holding U+0000;
//  - every `integer` in a request schema is bounded to the safe-integer range
//    unless it declares tighter bounds (JS numbers past 2^53 are not exact, and
//    2^53 fits BIGINT). Columns narrower than BIGINT (group ids) declare their
//    own maximum (INT32_MAX in schemas.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../core/errors.js';

/** The path of the first key or string in `value` that contains NUL, or undefined. */
export function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  const join = (key: string) => (path ? `${path}.${key}` : key);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], join(String(i)), depth + 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  const entries = value instanceof Map ? [...(value as Map<unknown, unknown>).entries()] : Object.entries(value);
  for (const [key, item] of entries) {
    const name = String(key);
    if (name.includes('\u0000')) return join(name.split('\u0000').join('\\0'));
    const hit = findNul(item, join(name), depth + 1);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Throws 400/40001 naming the first field that holds a NUL character. */
export function refuseNul(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): void {
  const field = findNul(request.params, '') ?? findNul(request.query, '') ?? findNul(request.body, '');
  if (field !== undefined) throw badRequest(`${field || 'body'}: must not contain NUL characters`);
}

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => refuseNul(request));
}

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A copy of a request schema in which every integer without bounds of its own
 * gets the safe-integer range (what a BIGINT column and a JS number both hold
 * exactly). The original (shared, also used for documentation) is left alone.
 */
export function boundIntegers<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s: unknown) => boundIntegers(s)) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(schema)) out[key] = boundIntegers((schema as Record<string | symbol, unknown>)[key]);
  const types = ([] as unknown[]).concat(out.type);
  if (types.includes('integer')) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = SAFE;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = -SAFE;
  }
  return out as T;
}
