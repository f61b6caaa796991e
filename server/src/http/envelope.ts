/** The `{code, data, msg}` envelope of every API response but the standard-shaped ones. */
export interface Envelope<T> {
  code: number;
  data: T;
  msg: string;
}

export function ok<T>(data: T): Envelope<T> {
  return { code: 0, data, msg: '' };
}
