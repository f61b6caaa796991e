import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from './paths.js';

const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string };

export const VERSION: string = pkg.version;
