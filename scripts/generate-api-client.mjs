#!/usr/bin/env node
// Generates the web app's API types from the server's OpenAPI document:
//   web/src/api/generated/openapi.json  the document, as GET /api/v4/openapi.json serves it
//   web/src/api/generated/schema.ts     `paths` and `components` in openapi-typescript's
//                                       shape (what openapi-fetch expects), one alias per
//                                       named schema, and the envelope codes as ErrorCode
// Run `npm run api:generate` after changing a route's schema; `npm run api:check`
// (in .ci/run) fails when the committed files differ. Never edit the output.
//
// Why our own ~200 lines rather than openapi-typescript: see
// docs/decisions/022-schema-first-contract.md. The document is produced by
// TypeBox, so it uses a small part of JSON Schema, all of it handled below;
// anything else is an error here rather than a silent `unknown`.
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'web/src/api/generated');

async function loadDocument() {
  const dist = (p) => pathToFileURL(path.join(root, 'dist/server/src', p)).href;
  const { buildApp } = await import(dist('app.js'));
  const { loadConfig } = await import(dist('config.js'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cirrus-openapi-'));
  try {
    const config = loadConfig({ CIRRUS_DATA_DIR: dataDir, CIRRUS_ADMIN_EMAIL: 'openapi@example.com', CIRRUS_ADMIN_PASSWORD: 'generator-password-1' });
    const { app } = await buildApp(config, { logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v4/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /api/v4/openapi.json answered ${res.statusCode}: ${res.body}`);
      return JSON.parse(res.body);
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k) => (IDENT.test(k) || /^[1-9][0-9]*$/.test(k) ? k : JSON.stringify(k));
const pad = (n) => '  '.repeat(n);

function comment(text, depth) {
  if (!text) return '';
  const lines = String(text).replace(/\*\//g, '*\\/').split('\n');
  if (lines.length === 1) return `${pad(depth)}/** ${lines[0]} */\n`;
  return `${pad(depth)}/**\n${lines.map((l) => `${pad(depth)} * ${l}`.trimEnd()).join('\n')}\n${pad(depth)} */\n`;
}

const SKIP = new Set(['description', 'title', 'format', 'default', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'examples', 'x-enum-varnames']);

/** A JSON Schema (the subset TypeBox writes) as a TypeScript type. */
function tsType(schema, depth) {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref) {
    const m = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref);
    if (!m) throw new Error(`unsupported $ref ${schema.$ref}`);
    return `components["schemas"][${JSON.stringify(m[1])}]`;
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.anyOf || schema.oneOf) return (schema.anyOf ?? schema.oneOf).map((s) => wrap(tsType(s, depth))).join(' | ');
  if (schema.allOf) return schema.allOf.map((s) => wrap(tsType(s, depth))).join(' & ');
  if (Array.isArray(schema.type)) return schema.type.map((t) => wrap(tsType({ ...schema, type: t }, depth))).join(' | ');
  switch (schema.type) {
    case 'string':
      // Raw bytes (a picture sent as the body, a download read with parseAs: 'blob').
      return schema.format === 'binary' ? 'Blob' : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(tsType(schema.items, depth))}[]`;
    case 'object':
      return objectType(schema, depth);
    case undefined: {
      const known = Object.keys(schema).filter((k) => !SKIP.has(k));
      if (known.length === 0) return 'unknown';
      throw new Error(`unsupported schema ${JSON.stringify(schema)}`);
    }
    default:
      throw new Error(`unsupported type ${schema.type}`);
  }
}

function wrap(t) {
  return /[|&]/.test(t) && !/^\{[\s\S]*\}$/.test(t) ? `(${t})` : t;
}

function objectType(schema, depth) {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const lines = props.map(([k, s]) => `${comment(s.description, depth + 1)}${pad(depth + 1)}${key(k)}${required.has(k) ? '' : '?'}: ${tsType(s, depth + 1)};`);
  const extra = schema.additionalProperties;
  if (extra === true || (extra === undefined && props.length === 0)) lines.push(`${pad(depth + 1)}[key: string]: unknown;`);
  else if (extra && typeof extra === 'object') lines.push(`${pad(depth + 1)}[key: string]: ${tsType(extra, depth + 1)};`);
  if (lines.length === 0) return 'Record<string, never>';
  return `{\n${lines.join('\n')}\n${pad(depth)}}`;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function parametersType(params, depth) {
  const groups = { query: [], header: [], path: [], cookie: [] };
  for (const p of params ?? []) groups[p.in].push(p);
  const lines = Object.entries(groups).map(([where, list]) => {
    if (list.length === 0) return `${pad(depth + 1)}${where}?: never;`;
    const anyRequired = list.some((p) => p.required);
    const fields = list.map((p) => `${comment(p.description ?? p.schema?.description, depth + 2)}${pad(depth + 2)}${key(p.name)}${p.required ? '' : '?'}: ${tsType(p.schema, depth + 2)};`);
    return `${pad(depth + 1)}${where}${anyRequired ? '' : '?'}: {\n${fields.join('\n')}\n${pad(depth + 1)}};`;
  });
  return `{\n${lines.join('\n')}\n${pad(depth)}}`;
}

function contentType(content, depth) {
  const entries = Object.entries(content ?? {});
  if (entries.length === 0) return null;
  const lines = entries.map(([media, { schema }]) => `${pad(depth + 1)}${JSON.stringify(media)}: ${tsType(schema, depth + 1)};`);
  return `{\n${lines.join('\n')}\n${pad(depth)}}`;
}

function operationType(op, depth) {
  const lines = [];
  lines.push(`${pad(depth + 1)}parameters: ${parametersType(op.parameters, depth + 1)};`);
  if (op.requestBody) {
    const body = contentType(op.requestBody.content, depth + 2);
    lines.push(`${pad(depth + 1)}requestBody${op.requestBody.required ? '' : '?'}: {\n${pad(depth + 2)}content: ${body};\n${pad(depth + 1)}};`);
  } else {
    lines.push(`${pad(depth + 1)}requestBody?: never;`);
  }
  const responses = Object.entries(op.responses ?? {}).map(([status, r]) => {
    const content = contentType(r.content, depth + 3);
    const inner = [
      `${pad(depth + 3)}headers: {\n${pad(depth + 4)}[name: string]: unknown;\n${pad(depth + 3)}};`,
      content ? `${pad(depth + 3)}content: ${content};` : `${pad(depth + 3)}content?: never;`,
    ];
    return `${comment(r.description, depth + 2)}${pad(depth + 2)}${key(status)}: {\n${inner.join('\n')}\n${pad(depth + 2)}};`;
  });
  lines.push(`${pad(depth + 1)}responses: {\n${responses.join('\n')}\n${pad(depth + 1)}};`);
  return `{\n${comment(op.description, depth + 1)}${lines.join('\n')}\n${pad(depth)}}`;
}

function generate(doc) {
  const out = [];
  out.push('// Generated from GET /api/v4/openapi.json by scripts/generate-api-client.mjs.');
  out.push('// Do not edit: change the route schemas on the server and run `npm run api:generate`.');
  out.push('// (The document is the source: see docs/decisions/022-schema-first-contract.md.)');
  out.push('');
  out.push('export interface paths {');
  for (const [p, item] of Object.entries(doc.paths)) {
    out.push(`  ${JSON.stringify(p)}: {`);
    out.push(`    parameters: {\n      query?: never;\n      header?: never;\n      path?: never;\n      cookie?: never;\n    };`);
    for (const m of METHODS) {
      if (item[m]) out.push(`    ${m}: ${operationType(item[m], 2)};`);
      else out.push(`    ${m}?: never;`);
    }
    out.push('  };');
  }
  out.push('}');
  out.push('');
  out.push('export interface components {');
  out.push('  schemas: {');
  const schemas = doc.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    out.push(`${comment(schema.description, 2)}    ${key(name)}: ${tsType(schema, 2)};`);
  }
  out.push('  };');
  out.push('}');
  out.push('');
  out.push('export type Schemas = components["schemas"];');
  for (const name of Object.keys(schemas)) {
    if (!IDENT.test(name)) throw new Error(`schema name ${name} is not an identifier`);
    out.push(`export type ${name} = components["schemas"][${JSON.stringify(name)}];`);
  }
  const codes = schemas.ErrorCode;
  if (codes?.enum && codes['x-enum-varnames']) {
    out.push('');
    out.push(`${comment(codes.description, 0)}export const ErrorCode = {`);
    codes['x-enum-varnames'].forEach((n, i) => out.push(`  ${key(n)}: ${JSON.stringify(codes.enum[i])},`));
    out.push('} as const;');
  }
  return `${out.join('\n')}\n`;
}

const doc = await loadDocument();
const files = { 'openapi.json': `${JSON.stringify(doc, null, 2)}\n`, 'schema.ts': generate(doc) };
const summary = `(${Object.keys(doc.paths).length} paths, ${Object.keys(doc.components?.schemas ?? {}).length} schemas)`;
if (process.argv.includes('--check')) {
  // CI (npm run api:check): compare with what is committed instead of writing,
  // so a route schema changed without regenerating fails the build.
  const stale = Object.entries(files).filter(([name, text]) => {
    const file = path.join(outDir, name);
    return !existsSync(file) || readFileSync(file, 'utf8') !== text;
  });
  if (stale.length > 0) {
    console.error(`stale: ${stale.map(([name]) => path.relative(root, path.join(outDir, name))).join(', ')} differ from the routes' schemas; run npm run api:generate and commit the result`);
    process.exit(1);
  }
  console.log(`${path.relative(root, outDir)} is current ${summary}`);
} else {
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(outDir, name), text);
  console.log(`wrote ${path.relative(root, outDir)}/openapi.json and schema.ts ${summary}`);
}
