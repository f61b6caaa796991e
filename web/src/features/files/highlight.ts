// Syntax highlighting for code previews, with highlight.js's core and the
// languages people keep in a file service. This module is imported only when
// a code file is previewed, so neither the core nor a grammar is part of the
// first page load (the 300 KB budget, docs/benchmarks.md).
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, markdown, php, python, ruby, rust, scss, sql, swift, typescript, xml, yaml };
for (const [name, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, grammar);

const BY_EXTENSION: Record<string, keyof typeof LANGUAGES> = {
  sh: 'bash', bash: 'bash', zsh: 'bash', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', cs: 'csharp', css: 'css',
  diff: 'diff', patch: 'diff', go: 'go', ini: 'ini', toml: 'ini', cfg: 'ini', conf: 'ini', java: 'java', js: 'javascript', mjs: 'javascript',
  cjs: 'javascript', jsx: 'javascript', json: 'json', kt: 'kotlin', kts: 'kotlin', md: 'markdown', markdown: 'markdown', php: 'php', py: 'python',
  rb: 'ruby', rs: 'rust', scss: 'scss', sql: 'sql', swift: 'swift', ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  xml: 'xml', html: 'xml', htm: 'xml', svg: 'xml', yml: 'yaml', yaml: 'yaml',
};

/** The grammar for a file name, or null (shown as plain text). */
export function languageFor(name: string): string | null {
  if (/^dockerfile$/i.test(name) || /\.dockerfile$/i.test(name)) return 'dockerfile';
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || null;
}

/** The code as highlight.js HTML: every piece of the source is escaped, only its <span class="hljs-…"> are markup. */
export function highlight(code: string, language: string): string {
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
