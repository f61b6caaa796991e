// Malformed-input fuzzing of every registered route (api-contract §1: bad
// input is a 4xx with the envelope, never a 5xx). Each request takes a route
// from the server's own route table, fills its declared params, query and body
// fields with plausible values, then breaks one of them with a value the
// database cannot store or the parser must refuse: NUL bytes, integers past
// 32 and 64 bits, huge strings, lone surrogates, bad percent-encoding, crafted
// page tokens, wrong types, NUL in Basic credentials. Deterministic (seeded),
// bounded in count and time, on whichever database the suite runs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import type { RouteInfo } from '../../src/app.js';

const TOTAL = Number(process.env.CIRRUS_FUZZ_REQUESTS ?? 10_000);
const TIME_LIMIT_MS = 300_000;
const CONCURRENCY = 6;

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  format?: string;
  minLength?: number;
  minimum?: number;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
}

const b64u = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const BAD_STRINGS = [
  'a\u0000b', '\u0000', 'abc\u0000def', 'x'.repeat(10_000), '\ud800', 'a\ud800b', '../../etc/passwd', '', ' ', '%00',
  '\u202e', 'A'.repeat(300), '/'.repeat(300), '/a/\u0000/b', 'é'.normalize('NFD'), '\u0001\u001f\u007f',
  '2147483648', '9223372036854775808', '-1', '1e400', 'null', '[]', '{}',
  b64u('["x",1,"a\u0000"]'), b64u('[1,"\u0000"]'), b64u('[9223372036854775807,"x"]'), b64u('[1e400,"x"]'), b64u('{"a":1}'), b64u('\u0000'),
];
const BAD_NUMBERS = [2 ** 31, 2 ** 31 - 1, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 2 ** 64, 1e308, -1, -(2 ** 31) - 1, -(2 ** 63), 0.5, 0, -0];
const BAD_OTHERS: Json[] = [null, true, false, [], {}, ['a\u0000'], { a: '\u0000' }, [2 ** 63], { '\u0000': 1 }];
// Text for query strings and path params: raw (already percent-encoded where needed).
const BAD_TEXT = [
  '%00', 'a%00b', 'abc%00def', '%', '%zz', '%ED%A0%80', '%C0%80', '%FF', 'x'.repeat(5000), '2147483648', '9223372036854775808',
  '99999999999999999999999999', '-1', '1.5', '1e400', 'NaN', 'true', '', '..', '%2e%2e', '%2F', encodeURIComponent(b64u('["x",1,"a\u0000"]')),
  encodeURIComponent(b64u('[1,"\u0000"]')), encodeURIComponent(b64u('[9223372036854775807,"x"]')), '%E2%80%AE', '%0d%0a',
];
const FORM_FIELDS = [
  'grant_type', 'client_id', 'client_secret', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'token', 'token_type_hint',
  'scope', 'session_id', 'otp', 'email', 'password', 'path', 'name', 'id', 'state', 'response_type', 'code_challenge', 'code_challenge_method',
];

describe('fuzz: malformed requests to every route never answer 5xx', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  /** Real ids, so that one broken field is not hidden behind a 404 on the others. */
  const ids = new Map<string, string[]>();

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    const signedIn = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    admin = signedIn.token.access_token;
    const alice = await createUser(api, admin, 'fuzz-alice@example.com');
    const app = await api.put<{ id: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Fuzz', icon: 'x', redirect_uris: ['https://app.example/cb'], scopes: ['openid', 'Files.Read'] } },
      { token: admin },
    );
    assert.equal(app.status, 200, app.text);
    await put(api, alice.token.access_token, '/fuzz/a.txt', 'hello');
    ids.set('id', [signedIn.user.id, alice.user.id, app.body.data.id]);
    ids.set('client_id', [app.body.data.id]);
  });
  after(() => server.close());

  it(`api-contract §1: ${TOTAL} malformed requests, 0 answered 5xx`, async () => {
    const routes = server.built.routes.filter((r) => r.method !== 'HEAD' || r.url.includes('upload'));
    assert.ok(routes.length > 40, `the route table is visible (${routes.length})`);
    const rand = rng(20261123);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

    function plausible(s: Schema | undefined, name: string): Json {
      if (!s) return 'x';
      if (s.const !== undefined) return s.const as Json;
      if (s.enum) return pick(s.enum) as Json;
      if (s.anyOf) return plausible(pick(s.anyOf), name);
      const type = Array.isArray(s.type) ? s.type[0] : s.type;
      if (type === 'integer' || type === 'number') return s.minimum ?? 1;
      if (type === 'boolean') return true;
      if (type === 'array') return [plausible(s.items, name)];
      if (type === 'object') {
        const out: Record<string, Json> = {};
        for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = plausible(v, k);
        return out;
      }
      if (s.format === 'email' || name.includes('email')) return `fuzz${Math.floor(rand() * 1e6)}@example.com`;
      if (name === 'path') return '/fuzz/a.txt';
      if (name.includes('password')) return 'fuzz-password-1';
      if (ids.has(name) || name === 'id') return pick(ids.get(name) ?? [...ids.values()].flat());
      return 'fuzz'.padEnd(Math.max(4, s.minLength ?? 0), 'z');
    }
    /** Replaces one leaf (possibly nested) of a plausible value with a bad one. */
    function breakOne(value: Json, s: Schema | undefined): Json {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const keys = Object.keys(value);
        if (keys.length === 0) return { [pick(['a', '\u0000', 'id'])]: bad(undefined) };
        const k = pick(keys);
        return { ...value, [k]: breakOne(value[k]!, s?.properties?.[k]) };
      }
      if (Array.isArray(value) && value.length > 0 && rand() < 0.7) return [breakOne(value[0]!, s?.items)];
      return bad(s);
    }
    const bad = (s: Schema | undefined): Json => {
      const t = s?.anyOf ? s.anyOf.map((x) => x.type) : [s?.type];
      if (t.includes('integer') && rand() < 0.7) return pick(BAD_NUMBERS);
      const r = rand();
      return r < 0.55 ? pick(BAD_STRINGS) : r < 0.85 ? pick(BAD_NUMBERS) : pick(BAD_OTHERS);
    };
    /** Percent-encodes like a form would; a lone surrogate goes out as its (invalid) UTF-8 bytes. */
    const enc = (v: string): string => {
      try {
        return encodeURIComponent(v);
      } catch {
        return v.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^%A-Za-z0-9]/g, (c) => encodeURIComponent(c));
      }
    };
    const text = (v: Json): string => enc(typeof v === 'string' ? v : JSON.stringify(v));

    function build(route: RouteInfo): { url: string; init: RequestInit } {
      const schema = route.schema ?? {};
      const paramsSchema = (schema.params as Schema | undefined)?.properties ?? {};
      const querySchema = (schema.querystring as Schema | undefined)?.properties ?? {};
      const bodySchema = (schema.body as Schema | undefined)?.properties;
      const target = pick(['param', 'query', 'body', 'body', 'header']);
      let url = route.url.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
        target === 'param' && rand() < 0.8 ? pick(BAD_TEXT) : enc(String(plausible(paramsSchema[name], name))),
      );
      url = url.replace('*', () => (target === 'param' ? pick(BAD_TEXT) : 'x'));
      const queryNames = Object.keys(querySchema);
      if (route.method === 'GET' && queryNames.length === 0) queryNames.push(...FORM_FIELDS.slice(0, 8));
      const query: string[] = [];
      const brokenQuery = target === 'query' ? pick([...queryNames, '\u0000']) : undefined;
      for (const name of queryNames) {
        if (name === brokenQuery) query.push(`${encodeURIComponent(name)}=${pick(BAD_TEXT)}`);
        else if (rand() < 0.7) query.push(`${encodeURIComponent(name)}=${text(plausible(querySchema[name], name))}`);
      }
      if (brokenQuery === '\u0000') query.push(`a%00b=${pick(BAD_TEXT)}`);
      if (query.length) url += `?${query.join('&')}`;

      const headers: Record<string, string> = {};
      const auth = rand();
      if (target === 'header' && auth < 0.5) headers.authorization = `Basic ${Buffer.from(`${pick(BAD_STRINGS)}:${pick(BAD_STRINGS)}`).toString('base64')}`;
      else if (target === 'header' && auth < 0.7) headers.authorization = `Bearer ${pick(BAD_STRINGS).replace(/[^\x21-\x7e]/g, '')}x`;
      else if (auth < 0.9) headers.authorization = `Bearer ${admin}`;

      let body: string | undefined;
      if (!['GET', 'HEAD', 'OPTIONS'].includes(route.method)) {
        let obj: Record<string, Json> = {};
        if (bodySchema) obj = plausible(schema.body as Schema, 'body') as Record<string, Json>;
        else for (const name of FORM_FIELDS) if (rand() < 0.5) obj[name] = plausible(undefined, name);
        if (target === 'body') obj = breakOne(obj, schema.body as Schema | undefined) as Record<string, Json>;
        const form = !bodySchema || rand() < 0.15;
        if (form) {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          body = Object.entries(obj).map(([k, v]) => `${encodeURIComponent(k)}=${text(v)}`).join('&');
          if (target === 'body' && rand() < 0.3) body += `&${pick(['client_id', 'grant_type', 'token', 'a'])}=${pick(BAD_TEXT)}`;
        } else if (target === 'body' && rand() < 0.1) {
          headers['content-type'] = 'application/json';
          body = pick(['{"a":', '\u0000', '{"email":"a\u0000"}', '[' .repeat(5000), '{"__proto__":{"x":1}}', '"\\ud800"', '1e999']);
        } else {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(obj);
        }
      }
      return { url, init: { method: route.method, headers, body, redirect: 'manual' } };
    }

    const started = Date.now();
    let sent = 0;
    let fiveXX = 0;
    let transportErrors = 0;
    const examples: string[] = [];
    const byRoute = new Map<string, number>();
    const queue = Array.from({ length: TOTAL }, (_, i) => routes[i % routes.length]!);
    async function worker(): Promise<void> {
      for (;;) {
        const route = queue.shift();
        if (!route || Date.now() - started > TIME_LIMIT_MS) return;
        const { url, init } = build(route);
        sent++;
        try {
          const res = await fetch(server.url + url, { ...init, signal: AbortSignal.timeout(30_000) });
          // A change-feed stream (GET /file/events) that was accepted never ends by itself: its status and headers are the answer.
          const streaming = res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
          const text = streaming ? (await res.body?.cancel(), '') : await res.text();
          // 507 is RFC 4918 §11.5's answer to a full quota (the fuzzer may set the group's quota to 0 through the admin routes), not a fault.
          if (res.status >= 500 && !(res.status === 507 && text.includes('Not enough storage space'))) {
            fiveXX++;
            const key = `${route.method} ${route.url}`;
            byRoute.set(key, (byRoute.get(key) ?? 0) + 1);
            if (examples.length < 40) examples.push(`${res.status} ${init.method} ${url.slice(0, 200)} ${String(init.body ?? '').slice(0, 200)} -> ${text.slice(0, 120)}`);
          }
        } catch (err) {
          transportErrors++;
          if (examples.length < 40) examples.push(`transport ${init.method} ${url.slice(0, 200)}: ${String(err)}`);
        }
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`fuzz (${server.dialect}): ${sent} requests to ${routes.length} routes in ${seconds} s: ${fiveXX} answered 5xx, ${transportErrors} transport errors`);
    for (const [key, n] of byRoute) console.log(`  5xx ${n} x ${key}`);
    for (const e of examples) console.log(`  ${e}`);
    assert.equal(sent, TOTAL, 'every request was sent within the time bound');
    assert.equal(fiveXX, 0, `5xx answers:\n${examples.join('\n')}`);
    assert.equal(transportErrors, 0, 'no connection was dropped without an answer');
  });
});
