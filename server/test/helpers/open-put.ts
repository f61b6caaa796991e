// A streamed PUT the test feeds itself: the request stays open (its body
// short of the declared length) until the test writes the rest or ends it,
// so it can act while the upload is in flight (move the clock, kill the
// process, hold a lock).
import { request as httpRequest, type ClientRequest } from 'node:http';

export interface OpenPut {
  req: ClientRequest;
  /** The answer's status once its body has ended; null when the connection failed (the server died). */
  status: Promise<number | null>;
}

/** Starts `PUT /api/v4/file/content` of `declared` bytes and sends `first` of them. */
export function openPut(baseUrl: string, token: string, path: string, declared: number, first: Buffer): OpenPut {
  const req = httpRequest(new URL(`/api/v4/file/content?path=${encodeURIComponent(path)}`, baseUrl), {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'content-length': String(declared) },
    agent: false,
  });
  const status = new Promise<number | null>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
    });
    req.on('error', () => resolve(null));
  });
  if (first.length > 0) req.write(first);
  return { req, status };
}
