// OAuth request parameters as received, before any rule is applied. Empty
// values count as omitted (RFC 6749 §3.1, §3.2); repeats are kept so that the
// rules can refuse them.

/** Each parameter name with every non-empty value it was given. */
export type RequestParams = Map<string, string[]>;

export function paramsFromQuery(query: string): RequestParams {
  const params: RequestParams = new Map();
  for (const [name, value] of new URLSearchParams(query)) {
    if (value === '') continue;
    params.set(name, [...(params.get(name) ?? []), value]);
  }
  return params;
}

export function paramsFromObject(body: Record<string, unknown>): RequestParams {
  const params: RequestParams = new Map();
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string' && value !== '') params.set(name, [value]);
  return params;
}

/** The first parameter given more than once, if any. */
export function repeatedParam(params: RequestParams, among?: ReadonlySet<string>): string | undefined {
  for (const [name, values] of params) if (values.length > 1 && (!among || among.has(name))) return name;
  return undefined;
}
