// The JSON body parser of every API route (issue 19). Fastify's own parser
// (secure-json-parse) runs on the whole body; a 1 MiB body of half a million
// nested arrays, or of a hundred thousand keys, then costs a long parse and a
// walk of every value afterwards (the NUL guard, the schema) on the event
// loop. A linear pre-scan of the text refuses such a body with 400/40001
// before anything is built: at most JSON_LIMITS.depth levels of nesting and
// JSON_LIMITS.values values (arrays, objects, members and elements). The scan
// stops at the first character past a limit. What passes goes to Fastify's
// default parser (prototype poisoning refused, empty bodies 400 as before).
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../core/errors.js';

export const JSON_LIMITS = {
  depth: 64,
  /** Values in the whole document; the largest legitimate body (1,000 paths) holds about a thousand. */
  values: 20_000,
} as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * Why `text` is refused, or undefined. One pass over the characters, never
 * more: what is inside strings is skipped, brackets count depth, and every
 * opening bracket or comma outside a string starts one more value. Syntax is
 * left to JSON.parse.
 */
export function jsonShapeProblem(text: string, limits: { depth: number; values: number } = JSON_LIMITS): string | undefined {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limits.depth) return `body: nested more than ${limits.depth} levels deep`;
      if (++values > limits.values) return `body: more than ${limits.values} values`;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA && ++values > limits.values) return `body: more than ${limits.values} values`;
  }
  return undefined;
}

/** Replaces the root instance's application/json parser; call before any route is registered. */
export function registerJsonParser(app: FastifyInstance, bodyLimit: number): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const problem = jsonShapeProblem(body as string);
    if (problem !== undefined) {
      done(badRequest(problem), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
