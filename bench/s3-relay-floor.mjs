// The Node floor of the S3 benchmark: the least a Node HTTP server can do to
// pass a file between a client and an S3 store (no auth, no database, no
// content hash), run as its own process like Cirrus, with the same AWS SDK
// client settings as Cirrus's driver. It separates what relaying through one
// Node process costs on this machine from what Cirrus adds on top.
//   GET /<key>  GetObject, the body piped into the response
//   PUT /<key>  the request body streamed to the store with lib-storage's
//               Upload (8 MiB parts, 4 in flight: Cirrus's part size)
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { startChildServer } from './child-server.mjs';

function serve(port, endpoint, bucket) {
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    // As in Cirrus's driver (files/storage/s3.ts): no CRC of every part sent, none checked on reads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  http
    .createServer(async (req, res) => {
      const key = decodeURIComponent(req.url.slice(1));
      try {
        if (req.method === 'GET') {
          const obj = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
          res.writeHead(200, { 'content-length': String(obj.ContentLength), 'content-type': 'application/octet-stream' });
          await pipeline(obj.Body, res);
          return;
        }
        await new Upload({ client, params: { Bucket: bucket, Key: key, Body: req }, partSize: 8 * 1024 * 1024, queueSize: 4 }).done();
        res.end('ok');
      } catch (err) {
        res.destroy(err);
      }
    })
    .listen(port, '127.0.0.1', () => process.send?.('ready'));
}

/** Starts the floor relay as a child process (with npm start's node flags); resolves once it listens. */
export function startS3RelayFloor({ endpoint, bucket, nodeArgs = [] }) {
  return startChildServer(fileURLToPath(import.meta.url), [endpoint, bucket], { nodeArgs, name: 'the S3 relay floor' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [port, endpoint, bucket] = process.argv.slice(2);
  serve(Number(port), endpoint, bucket);
}
