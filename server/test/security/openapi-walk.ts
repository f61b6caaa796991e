// Walks the OpenAPI document the server publishes (GET /api/v4/openapi.json),
// so that the security tests of issue 19 cover every route, including routes
// added after them: a test reads the document, never a hand-kept route list.
import type { Api } from '../helpers/client.js';

export interface AuthExtension {
  mode: 'none' | 'required' | 'optional';
  scopes: string[];
  first_party_only: boolean;
  admin: boolean;
  declared: boolean;
}

export interface Operation {
  method: string;
  /** The document's path, `{param}` placeholders included. */
  path: string;
  auth: AuthExtension | undefined;
  security: Record<string, string[]>[] | undefined;
  /** Media types of the request body, when the operation takes one. */
  bodyTypes: string[];
  /** Media types of the 200 and 206 answers. */
  successTypes: string[];
  parameters: { name: string; in: string; required?: boolean; schema?: Record<string, unknown> }[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { security?: Record<string, string[]>[]; 'x-cirrus-auth'?: AuthExtension; requestBody?: { content: Record<string, unknown> }; responses?: Record<string, { content?: Record<string, unknown> }>; parameters?: Operation['parameters'] }>>;
}

const METHODS = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options']);

export async function operations(api: Api): Promise<Operation[]> {
  const res = await api.raw('GET', '/api/v4/openapi.json');
  if (res.status !== 200) throw new Error(`openapi.json: ${res.status}`);
  const doc = res.body as OpenApiDocument;
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      out.push({
        method: method.toUpperCase(),
        path,
        auth: op['x-cirrus-auth'],
        security: op.security,
        bodyTypes: Object.keys(op.requestBody?.content ?? {}),
        successTypes: ['200', '206'].flatMap((status) => Object.keys(op.responses?.[status]?.content ?? {})),
        parameters: op.parameters ?? [],
      });
    }
  }
  if (out.length < 50) throw new Error(`the document lists only ${out.length} operations`);
  return out;
}

/** A concrete URL for an operation: path parameters get `values[name]` or a placeholder that names nothing that exists. */
export function concretePath(op: Operation, values: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? placeholder(op, name)));
}

function placeholder(op: Operation, name: string): string {
  const schema = op.parameters.find((p) => p.in === 'path' && p.name === name)?.schema ?? {};
  if (schema.type === 'integer' || schema.type === 'number') return '999999';
  return 'zzNoSuchThing9';
}

export const describe_ = (op: Operation): string => `${op.method} ${op.path}`;
