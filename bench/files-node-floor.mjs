// The Node floor of the file benchmark: the least a Node HTTP server can do
// to serve and receive a file (no auth, no database, no checksum), run as
// its own process like Cirrus. It separates what loopback HTTP costs Node on
// this machine from what Cirrus adds on top.
//   GET /<name>  streams <root>/<name> (fs.createReadStream, 1 MiB reads)
//   PUT /        pipes the body into a new file under <scratch>, fsyncs it,
//                answers 200 with the byte count, and deletes the file
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { startChildServer } from './child-server.mjs';

function serve(port, root, scratch) {
  let n = 0;
  http
    .createServer(async (req, res) => {
      try {
        if (req.method === 'GET') {
          const file = path.join(root, path.basename(req.url));
          res.writeHead(200, { 'content-length': statSync(file).size, 'content-type': 'application/octet-stream' });
          await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), res);
          return;
        }
        const file = path.join(scratch, `upload-${n++}.bin`);
        try {
          const out = createWriteStream(file);
          await pipeline(req, out);
          const handle = await open(file, 'r');
          await handle.sync();
          await handle.close();
          res.end(String(out.bytesWritten));
        } finally {
          await rm(file, { force: true });
        }
      } catch (err) {
        res.destroy(err);
      }
    })
    .listen(port, '127.0.0.1', () => process.send?.('ready'));
}

/** Starts the floor server as a child process; resolves once it listens. */
export function startNodeFloor({ root, scratch }) {
  return startChildServer(fileURLToPath(import.meta.url), [root, scratch], { name: 'the Node floor server' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [port, root, scratch] = process.argv.slice(2);
  serve(Number(port), root, scratch);
}
