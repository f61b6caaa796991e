// Before uploading: which top-level names already exist in the folder, and
// free names for "keep both" (name (1).ext, name (2).ext, …).
import { ApiError } from '../../../api/client';
import { fileInfo, joinPath } from '../api';
import type { PickedFile } from '../drop';

export type ConflictChoice = 'replace' | 'keep' | 'skip';

async function exists(path: string): Promise<boolean> {
  try {
    await fileInfo(path);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

/** Top-level names (a file, or the first folder of a relative path) that are taken. */
export async function findConflicts(folder: string, picked: PickedFile[]): Promise<string[]> {
  const tops = [...new Set(picked.map((p) => p.relative.split('/')[0]!))];
  const taken: string[] = [];
  for (const name of tops) if (await exists(joinPath(folder, name))) taken.push(name);
  return taken;
}

export async function freeName(folder: string, name: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let i = 1; i < 1000; i++) {
    const candidate = `${base} (${i})${ext}`;
    if (!(await exists(joinPath(folder, candidate)))) return candidate;
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
