// Every text of the web app exists in English and Simplified Chinese: each
// locale file has the same keys in both languages (plural forms aside: Chinese
// has only "_other"), and the consent page's scope descriptions are all
// translated.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SCOPE_DESCRIPTIONS } from '../../../web/src/oauth/scopes.js';
import { ROOT_DIR } from '../../src/paths.js';

const ROOT = path.join(ROOT_DIR, 'web/src/locales');

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}
const read = (lang: string, file: string): unknown => JSON.parse(readFileSync(path.join(ROOT, lang, file), 'utf8'));

describe('web app: translations', () => {
  it('English and Simplified Chinese have the same keys in every file', () => {
    const files = readdirSync(path.join(ROOT, 'en')).sort();
    // scopes.json exists only for translations: English is web/src/oauth/scopes.ts.
    assert.deepEqual(readdirSync(path.join(ROOT, 'zh-CN')).filter((f) => f !== 'scopes.json').sort(), files);
    for (const file of files) {
      const en = [...new Set(keys(read('en', file)))].sort();
      const zh = [...new Set(keys(read('zh-CN', file)))].sort();
      assert.deepEqual(zh.filter((k) => !en.includes(k)), [], `${file}: keys only in zh-CN`);
      assert.deepEqual(en.filter((k) => !zh.includes(k)), [], `${file}: keys missing in zh-CN`);
    }
  });

  it('every scope has a Chinese title and description', () => {
    const zh = read('zh-CN', 'scopes.json') as Record<string, { title: string; detail: string }>;
    assert.deepEqual(Object.keys(zh).sort(), Object.keys(SCOPE_DESCRIPTIONS).map((s) => s.replace(/\./g, '_')).sort());
    for (const [k, v] of Object.entries(zh)) assert.ok(/[\u4e00-\u9fff]/.test(v.title) && /[\u4e00-\u9fff]/.test(v.detail), k);
  });
});
