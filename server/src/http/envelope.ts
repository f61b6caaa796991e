/** The `{code, data, msg}` envelope of every API response but the standard-shaped ones. */
export interface Envelope<T> {
  code: number;
  data: T;
  msg: string;
}

/** A success envelope; its `code` is the literal 0, as the routes' response schemas (http/contract.ts) declare. */
export function ok<T>(data: T): { code: 0; data: T; msg: string } {
  return { code: 0, data, msg: '' };
}
