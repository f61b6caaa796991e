// Runs s3rver (the S3 server the tests and benchmarks use) as its own process:
// `node scripts/s3rver.mjs <dir> <bucket> [port]`. Prints `listening <port>`
// once ready; SIGTERM/SIGKILL stops it. Loopback only.
import S3rver from 's3rver';

const [dir, bucket, port = '0'] = process.argv.slice(2);
if (!dir || !bucket) {
  console.error('usage: node scripts/s3rver.mjs <dir> <bucket> [port]');
  process.exit(2);
}
const server = new S3rver({ address: '127.0.0.1', port: Number(port), directory: dir, silent: true, configureBuckets: [{ name: bucket }] });
const address = await server.run();
console.log(`listening ${address.port}`);
process.on('SIGTERM', () => void server.close().finally(() => process.exit(0)));
