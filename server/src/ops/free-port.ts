// A TCP port the system just handed out on `host`, closed again, for a server
// that must know its own URL before it listens (CIRRUS_PORT=0): the base URL
// is configuration, fixed before the app is built (issuer, share and signed
// URLs), never patched after listen. Another process may take the port in
// between; listen() then fails with EADDRINUSE and the caller may retry.
import { createServer } from 'node:net';

export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close((err) => (err ? reject(err) : port > 0 ? resolve(port) : reject(new Error(`no free port on ${host}`))));
    });
  });
}
