// clamd's INSTREAM command, spoken over its socket (no client library: the
// protocol is four lines, and none could be installed): `zINSTREAM\0`, then
// the bytes as chunks each prefixed with its length (4 bytes, big-endian),
// then a zero length; clamd answers one NUL-terminated line and closes.
//   stream: OK                          clean
//   stream: <signature> FOUND           infected
//   INSTREAM size limit exceeded. ERROR past clamd's StreamMaxLength: NOT clean
// Anything else, a refused connection or a silent scanner is a failure: the
// caller holds the upload rather than let unscanned bytes through.
import { createConnection, type Socket } from 'node:net';

export type ClamdAddress = { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number };

export type Verdict = { infected: false } | { infected: true; signature: string };

/** Why a scan gave no verdict: clamd unreachable or broken, or the file past its StreamMaxLength. */
export class ScanFailure extends Error {
  constructor(
    readonly reason: 'unavailable' | 'size_limit',
    message: string,
  ) {
    super(message);
    this.name = 'ScanFailure';
  }
}

/** Largest chunk sent at once (clamd reads chunks of any size up to StreamMaxLength). */
const CHUNK = 64 * 1024;
/** A clamd reply is one short line; more than this is not clamd. */
const MAX_REPLY = 4096;

/** `unix:/path`, `/path`, `tcp://host:port` or `host:port` (config.ts validates the shape). */
export function parseClamdAddress(raw: string): ClamdAddress {
  if (raw.startsWith('unix:')) return { kind: 'unix', path: raw.slice(5) };
  if (raw.startsWith('/')) return { kind: 'unix', path: raw };
  const hostPort = raw.replace(/^tcp:\/\//, '');
  const at = hostPort.lastIndexOf(':');
  return { kind: 'tcp', host: hostPort.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(hostPort.slice(at + 1)) };
}

/** Reads clamd's one-line reply as a verdict. */
export function readReply(reply: string): Verdict {
  const line = reply.replace(/\0[\s\S]*$/, '').trim();
  if (line === 'stream: OK') return { infected: false };
  const found = /^stream: (.+) FOUND$/.exec(line);
  if (found) return { infected: true, signature: found[1]! };
  if (/size limit exceeded/i.test(line)) throw new ScanFailure('size_limit', 'The file is larger than the virus scanner accepts');
  throw new ScanFailure('unavailable', `Unexpected answer from clamd: ${JSON.stringify(line.slice(0, 200))}`);
}

/**
 * Sends `source` to clamd and returns its verdict; throws ScanFailure when
 * there is none. `timeoutMs` bounds any silence of the socket (connecting,
 * sending, waiting for the verdict), not the whole scan.
 */
export async function scanStream(address: ClamdAddress, source: AsyncIterable<Uint8Array>, timeoutMs: number): Promise<Verdict> {
  const socket = address.kind === 'unix' ? createConnection({ path: address.path }) : createConnection({ host: address.host, port: address.port });
  socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`clamd said nothing for ${timeoutMs} ms`)));
  const chunks: Buffer[] = [];
  let size = 0;
  let failure: Error | null = null;
  let connectedOk = false;
  // The reply may come before we finish sending (clamd stops reading past its
  // StreamMaxLength and answers): collect it from the start.
  const replied = new Promise<string>((resolve) => {
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (c.includes(0) || size > MAX_REPLY) socket.destroy();
    });
    socket.on('error', (err) => (failure ??= err));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  try {
    await connected(socket);
    connectedOk = true;
    await send(socket, Buffer.from('zINSTREAM\0', 'latin1'));
    const open = () => socket.writable && size === 0;
    for await (const piece of source) {
      for (let at = 0; at < piece.length && open(); at += CHUNK) {
        const part = piece.subarray(at, at + CHUNK);
        const head = Buffer.alloc(4);
        head.writeUInt32BE(part.length);
        await send(socket, Buffer.concat([head, part]));
      }
      if (!open()) break;
    }
    if (open()) await send(socket, Buffer.alloc(4));
  } catch (err) {
    // A write that fails after clamd answered (it closed past its limit) still has the answer below.
    failure ??= err as Error;
    socket.destroy();
  }
  const reply = await replied;
  if (reply.length === 0) {
    // clamd closed on us mid-stream and its answer was lost with the failed
    // write: if it is alive, that close was its StreamMaxLength (it closes on
    // nothing else while reading a stream); if not, it went away.
    if (connectedOk && (await ping(address, timeoutMs))) throw new ScanFailure('size_limit', 'The file is larger than the virus scanner accepts (clamd closed the stream)');
    throw new ScanFailure('unavailable', `clamd gave no verdict: ${failure?.message ?? 'the connection closed'}`);
  }
  return readReply(reply);
}

/** Whether clamd answers `zPING` with PONG. */
async function ping(address: ClamdAddress, timeoutMs: number): Promise<boolean> {
  const socket = address.kind === 'unix' ? createConnection({ path: address.path }) : createConnection({ host: address.host, port: address.port });
  socket.setTimeout(timeoutMs, () => socket.destroy());
  let answer = '';
  return new Promise((resolve) => {
    socket.on('connect', () => socket.write('zPING\0'));
    socket.on('data', (c: Buffer) => {
      answer += c.toString('latin1');
      if (answer.includes('\0') || answer.length > 64) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer.startsWith('PONG')));
  });
}

function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve();
    });
  });
}

/**
 * Writes `buf` and waits until the socket took it, then one turn of the event
 * loop: clamd answers and closes as soon as a stream passes its
 * StreamMaxLength, and reading that answer before the next write is what
 * tells "too large" from "clamd went away" (a write after its close fails,
 * and a failed socket is destroyed with whatever it had not read yet).
 */
function send(socket: Socket, buf: Buffer): Promise<void> {
  if (!socket.writable) return Promise.resolve();
  return new Promise((resolve) => {
    socket.write(buf, () => setImmediate(resolve));
  });
}
