// The Tabler icon set's drawing data (5,000+ outline and 1,000+ filled
// icons, 1.8 MB) cut at build time into small chunks: an icon's chunk is
// chosen by a hash of its name, so showing one named icon (an OAuth app's
// icon on the consent page) loads about 1/64 of the set, never all of it.
//
//   import { loadIconNodes } from 'virtual:tabler-icons';
//   const nodes = await loadIconNodes('outline', 'cloud-upload'); // undefined if no such icon
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export const BUCKETS = 64;
const ID = 'virtual:tabler-icons';
type Style = 'outline' | 'filled';

/** FNV-1a of the name, modulo BUCKETS; `load` writes the same function for the browser. */
export function bucketOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h % BUCKETS;
}

export function tablerBuckets(iconsDir: string): Plugin {
  const sets = new Map<Style, Record<string, unknown>>();
  const set = (style: Style) => {
    if (!sets.has(style)) sets.set(style, JSON.parse(readFileSync(path.join(iconsDir, `tabler-nodes-${style}.json`), 'utf8')) as Record<string, unknown>);
    return sets.get(style)!;
  };
  return {
    name: 'cirrus:tabler-buckets',
    resolveId(id) {
      if (id === ID || id.startsWith(ID + '/')) return '\0' + id;
      return null;
    },
    load(id) {
      if (!id.startsWith('\0' + ID)) return null;
      const rest = id.slice(ID.length + 2);
      if (rest === '') {
        const imports = (style: Style) =>
          `[${Array.from({ length: BUCKETS }, (_, i) => `() => import('${ID}/${style}/${i}')`).join(',\n')}]`;
        return [
          `const loaders = { outline: ${imports('outline')}, filled: ${imports('filled')} };`,
          // bucketOf, as the browser runs it
          'export function bucketOf(name) {',
          '  let h = 0x811c9dc5;',
          '  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;',
          `  return h % ${BUCKETS};`,
          '}',
          'export function loadIconNodes(style, name) {',
          '  return loaders[style][bucketOf(name)]().then((m) => (Object.prototype.hasOwnProperty.call(m.default, name) ? m.default[name] : undefined));',
          '}',
        ].join('\n');
      }
      const [style, index] = rest.split('/') as [Style, string];
      const all = set(style);
      const part: Record<string, unknown> = {};
      for (const name of Object.keys(all)) if (bucketOf(name) === Number(index)) part[name] = all[name];
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(part))});`;
    },
  };
}
