// Before uploading: which top-level names already exist in the folder, which
// paths the server would refuse (a name with "\", say: those are flagged by
// name and the others still go), and free names for "keep both" (name (1).ext,
// name (2).ext, …). One POST /file/exists answers for many paths with 200, so
// a clean upload logs no 404s.
import { api, data } from '../../../api/client';
import { problemOfMessage } from '../../../api/fieldErrors';
import { pathNameProblem } from '../../../api/rules';
import { joinPath } from '../api';
import type { PickedFile } from '../drop';
import type { LocalText } from './store';

export type ConflictChoice = 'replace' | 'keep' | 'skip';

/** The most paths one /file/exists call takes (the server's limit). */
const MAX_PATHS = 1000;

interface PathCheck {
  exists: boolean;
  /** Why the server refuses this path, when it does. */
  problem: string | null;
}

/** Existence and validity of each path, in calls of up to MAX_PATHS. */
export async function checkPaths(paths: string[]): Promise<Map<string, PathCheck>> {
  const out = new Map<string, PathCheck>();
  const unique = [...new Set(paths)];
  for (let i = 0; i < unique.length; i += MAX_PATHS) {
    const r = await data(api().POST('/api/v4/file/exists', { body: { paths: unique.slice(i, i + MAX_PATHS) } }));
    for (const x of r.results) out.set(x.path, { exists: x.exists, problem: x.code === 0 ? null : x.msg.replace(/^paths: /, '') });
  }
  return out;
}

export interface Rejected {
  file: File;
  relative: string;
  targetPath: string;
  /** The server's words (English), shown when there is no sentence for the rule. */
  reason: string;
  text?: LocalText;
}

export interface Prepared {
  /** Top-level names (a file, or the first folder of a relative path) that are taken. */
  conflicts: string[];
  /** Files whose path the server refuses; the rest upload. */
  rejected: Rejected[];
  /** The files that can go. */
  picked: PickedFile[];
}

export async function prepare(folder: string, picked: PickedFile[]): Promise<Prepared> {
  const rejected: Rejected[] = [];
  // The server's name rules, checked here first (api/rules.ts): a name that can
  // never be accepted is not sent, and is said in the reader's language.
  const named: PickedFile[] = [];
  for (const p of picked) {
    const problem = pathNameProblem(p.relative);
    if (!problem) named.push(p);
    else rejected.push({ file: p.file, relative: p.relative, targetPath: joinPath(folder, p.relative), reason: problem.rule, text: { key: `files.nameRule.${problem.rule}`, params: problem.device ? { device: problem.device } : {} } });
  }
  const tops = [...new Set(named.map((p) => p.relative.split('/')[0]!))];
  const checks = named.length ? await checkPaths([...tops.map((n) => joinPath(folder, n)), ...named.map((p) => joinPath(folder, p.relative))]) : new Map<string, PathCheck>();
  const ok: PickedFile[] = [];
  for (const p of named) {
    const targetPath = joinPath(folder, p.relative);
    const problem = checks.get(targetPath)?.problem;
    if (!problem) {
      ok.push(p);
      continue;
    }
    const rule = problemOfMessage(`paths: ${problem}`);
    const text = rule && rule.rule !== 'invalid' ? { key: `errors.field.${rule.rule}`, params: rule.params } : undefined;
    rejected.push({ file: p.file, relative: p.relative, targetPath, reason: problem, text });
  }
  const okTops = new Set(ok.map((p) => p.relative.split('/')[0]!));
  const conflicts = tops.filter((n) => okTops.has(n) && checks.get(joinPath(folder, n))?.exists);
  return { conflicts, rejected, picked: ok };
}

export async function freeName(folder: string, name: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  // Candidates in batches of 50: one request usually settles it.
  for (let start = 1; start < 1000; start += 50) {
    const candidates = Array.from({ length: 50 }, (_, k) => `${base} (${start + k})${ext}`);
    const checks = await checkPaths(candidates.map((c) => joinPath(folder, c)));
    const free = candidates.find((c) => checks.get(joinPath(folder, c))?.exists === false);
    if (free) return free;
  }
  return `${base} (${Date.now()})${ext}`;
}

/** Target paths for each picked file after the person's choice for conflicts. */
export async function plan(folder: string, picked: PickedFile[], conflicts: string[], choice: ConflictChoice): Promise<{ file: File; targetPath: string }[]> {
  const renamed = new Map<string, string>();
  if (choice === 'keep') for (const name of conflicts) renamed.set(name, await freeName(folder, name));
  const out: { file: File; targetPath: string }[] = [];
  for (const p of picked) {
    const [top, ...rest] = p.relative.split('/');
    if (conflicts.includes(top!) && choice === 'skip') continue;
    const name = renamed.get(top!) ?? top!;
    out.push({ file: p.file, targetPath: joinPath(folder, [name, ...rest].join('/')) });
  }
  return out;
}
