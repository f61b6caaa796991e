// Files and folders from a drop or a folder picker, with their relative paths,
// so an uploaded folder keeps its structure.
export interface PickedFile {
  file: File;
  /** Relative path inside the drop, e.g. "photos/2024/a.jpg". */
  relative: string;
}

interface FsEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(cb: (f: File) => void, err: (e: unknown) => void): void;
  createReader?(): { readEntries(cb: (entries: FsEntry[]) => void, err: (e: unknown) => void): void };
}

async function walk(entry: FsEntry, prefix: string, out: PickedFile[]): Promise<void> {
  if (entry.isFile && entry.file) {
    const file = await new Promise<File>((resolve, reject) => entry.file!(resolve, reject));
    out.push({ file, relative: prefix + entry.name });
  } else if (entry.isDirectory && entry.createReader) {
    const reader = entry.createReader();
    // readEntries returns at most ~100 entries per call: read until empty.
    for (;;) {
      const batch = await new Promise<FsEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, `${prefix}${entry.name}/`, out);
    }
  }
}

export async function filesFromDrop(dt: DataTransfer): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const entries: FsEntry[] = [];
  for (const item of Array.from(dt.items)) {
    const entry = (item as DataTransferItem & { webkitGetAsEntry?(): FsEntry | null }).webkitGetAsEntry?.();
    if (entry) entries.push(entry);
  }
  if (entries.length === 0) return Array.from(dt.files).map((file) => ({ file, relative: file.name }));
  for (const e of entries) await walk(e, '', out);
  return out;
}

export function filesFromInput(list: FileList | File[] | null): PickedFile[] {
  return Array.from(list ?? []).map((file) => ({ file, relative: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name }));
}
