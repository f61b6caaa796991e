import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository root, whether running from source (tsx) or from dist/. */
export const ROOT_DIR: string = (() => {
  let dir = import.meta.dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the Cirrus package root');
    dir = parent;
  }
  return dir;
})();
