// Uploads through tus 1.0 (tus-js-client), outside React so they survive
// navigation between pages. Each file: progress, speed, pause/resume/cancel,
// automatic retries; a lost connection pauses uploads and coming back online
// resumes them. tus-js-client remembers each upload's URL in localStorage
// (fingerprint = target path + file identity), so after a reload choosing the
// same file again resumes where the server stopped instead of starting over.
// The server only shows a file once its last byte arrived: a half-uploaded
// file never appears as complete.
//
// The cost per file is constant however long the queue (1,000 small files in
// a queue finish within twice the server's own time: bench/upload-queue.mjs):
// items are found by id in a map, the next one to start comes from a FIFO,
// a change only marks its item, and the list the page renders is rebuilt at
// most once per frame (requestAnimationFrame), reusing the view of every item
// that did not change so that memoised rows skip it.
import type { Upload } from 'tus-js-client';
import { refreshSession } from '../../../api/client';
import { problemOfMessage } from '../../../api/fieldErrors';
import { tokenStore } from '../../../api/tokens';

export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'error' | 'canceled';

export interface UploadItem {
  id: number;
  name: string;
  targetPath: string;
  size: number;
  sent: number;
  status: UploadStatus;
  /** A reason a person can act on; set when status is 'error'. */
  error?: UploadError;
  /** Bytes per second over the last few seconds. */
  speed: number;
  /** Offset the upload resumed from (0 for a fresh one). */
  resumedFrom: number;
  autoPaused?: boolean;
}

interface Internal extends UploadItem {
  /** The view last published, until a change drops it. */
  view?: UploadItem;
  file: File;
  upload?: Upload;
  samples: { t: number; bytes: number }[];
  resuming?: boolean;
}

/** A sentence in the locales (key and values), so a refusal reads in the reader's language. */
export interface LocalText {
  key: string;
  params: Record<string, string | number>;
}

export interface UploadError {
  /** invalidName: the name can never be accepted; the file is not sent and not offered a retry. */
  kind: 'quota' | 'tooLarge' | 'name' | 'invalidName' | 'network' | 'auth' | 'other';
  /** The server's words (English), when there is no sentence for the rule. */
  message: string;
  text?: LocalText;
}

export interface PendingRecord {
  name: string;
  targetPath: string;
  size: number;
}

const PENDING_KEY = 'cirrus.uploads.pending';
const CONCURRENCY = 3;
const CHUNK = 8 * 1024 * 1024;
export const ENDPOINT = '/api/v4/file/upload';

let nextId = 1;
let items: Internal[] = [];
const byId = new Map<number, Internal>();
/** Items waiting to start, oldest first; an entry whose item is no longer queued is skipped. */
let queue: Internal[] = [];
let queueHead = 0;
let running = 0;
let snapshot: UploadItem[] = [];
const listeners = new Set<() => void>();
const finishedListeners = new Set<(targetPath: string) => void>();
const drainedListeners = new Set<() => void>();

function viewOf(it: Internal): UploadItem {
  if (!it.view) {
    const { file: _f, upload: _u, samples: _s, resuming: _r, view: _v, ...rest } = it;
    it.view = rest;
  }
  return it.view;
}

let frame: number | undefined;
let backstop: ReturnType<typeof setTimeout> | undefined;

function flush(): void {
  if (frame !== undefined) cancelAnimationFrame(frame);
  clearTimeout(backstop);
  frame = backstop = undefined;
  snapshot = items.map(viewOf);
  for (const l of listeners) l();
}

/** Publishes the list at the next frame (a hidden tab draws no frames: a timer backs it up). */
function publish(): void {
  if (frame !== undefined || backstop !== undefined) return;
  frame = requestAnimationFrame(flush);
  backstop = setTimeout(flush, 250);
}

function enqueue(it: Internal): void {
  if (queueHead > 1024 && queueHead * 2 > queue.length) {
    queue = queue.slice(queueHead);
    queueHead = 0;
  }
  queue.push(it);
}

export const uploads = {
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  get(): UploadItem[] {
    return snapshot;
  },
  /** Called with the path of each file that finished. */
  onFinished(l: (targetPath: string) => void): () => void {
    finishedListeners.add(l);
    return () => finishedListeners.delete(l);
  },
  /** Called when the last running upload stops and none waits: the moment to refresh listings once. */
  onDrained(l: () => void): () => void {
    drainedListeners.add(l);
    return () => drainedListeners.delete(l);
  },
  add(files: { file: File; targetPath: string }[]): void {
    for (const { file, targetPath } of files) {
      const it: Internal = { id: nextId++, name: file.name, targetPath, size: file.size, sent: 0, status: 'queued', speed: 0, resumedFrom: 0, file, samples: [] };
      items.push(it);
      byId.set(it.id, it);
      enqueue(it);
    }
    publish();
    pump();
  },
  /** Files that were not sent because the server refuses their path: listed as failed, with the reason, and never retried. */
  reject(files: { file: File; name: string; targetPath: string; reason: string; text?: LocalText }[]): void {
    for (const { file, name, targetPath, reason, text } of files) {
      const it: Internal = {
        id: nextId++, name, targetPath, size: file.size, sent: 0, status: 'error', error: { kind: 'invalidName', message: reason, text }, speed: 0, resumedFrom: 0, file, samples: [],
      };
      items.push(it);
      byId.set(it.id, it);
    }
    publish();
  },
  pause(id: number): void {
    const it = find(id);
    if (!it || (it.status !== 'uploading' && it.status !== 'queued')) return;
    void it.upload?.abort(false);
    if (it.status === 'uploading') running--;
    update(it, { status: 'paused', speed: 0, autoPaused: false });
    pump();
  },
  resume(id: number): void {
    const it = find(id);
    if (!it || (it.status !== 'paused' && it.status !== 'error') || it.error?.kind === 'invalidName') return;
    update(it, { status: 'queued', error: undefined });
    enqueue(it);
    pump();
  },
  cancel(id: number): void {
    const it = find(id);
    if (!it || it.status === 'done') return;
    // abort(true) also deletes the upload on the server (tus termination).
    void it.upload?.abort(true).catch(() => undefined);
    if (it.status === 'uploading') running--;
    update(it, { status: 'canceled', speed: 0 });
    forgetPending(it.targetPath);
    pump();
  },
  clearFinished(): void {
    items = items.filter((i) => {
      const keep = i.status !== 'done' && i.status !== 'canceled';
      if (!keep) byId.delete(i.id);
      return keep;
    });
    publish();
  },
  /** Uploads a previous page started and did not finish (choose the files again to resume). */
  pending(): PendingRecord[] {
    const active = new Set(items.filter((i) => i.status !== 'canceled').map((i) => i.targetPath));
    return readPending().filter((p) => !active.has(p.targetPath));
  },
  forget(targetPath: string): void {
    forgetPending(targetPath);
    publish();
  },
};

function find(id: number): Internal | undefined {
  return byId.get(id);
}

function update(it: Internal, patch: Partial<Internal>): void {
  Object.assign(it, patch);
  it.view = undefined;
  publish();
}

function readPending(): PendingRecord[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(PENDING_KEY) ?? '[]');
    return Array.isArray(v) ? (v as PendingRecord[]).filter((p) => typeof p?.targetPath === 'string') : [];
  } catch {
    return [];
  }
}

function rememberPending(rec: PendingRecord): void {
  const list = readPending().filter((p) => p.targetPath !== rec.targetPath);
  list.push(rec);
  try {
    localStorage.setItem(PENDING_KEY, JSON.stringify(list.slice(-50)));
  } catch {
    // storage full or blocked: only the reminder is lost
  }
}

function forgetPending(targetPath: string): void {
  try {
    localStorage.setItem(PENDING_KEY, JSON.stringify(readPending().filter((p) => p.targetPath !== targetPath)));
  } catch {
    // ignore
  }
}

/** Starts waiting uploads up to CONCURRENCY; each call costs what it starts, not the queue's length. */
function pump(): void {
  while (running < CONCURRENCY && queueHead < queue.length) {
    const it = queue[queueHead++]!;
    if (it.status !== 'queued' || !byId.has(it.id)) continue;
    running++;
    void start(it);
  }
  if (running === 0 && queueHead >= queue.length) for (const l of drainedListeners) l();
}

function classify(err: unknown): UploadError {
  const e = err as { originalResponse?: { getStatus(): number; getBody(): string } | null; message?: string };
  const res = e?.originalResponse;
  if (!res) return { kind: 'network', message: e?.message ?? 'network' };
  const status = res.getStatus();
  let msg = '';
  try {
    msg = (JSON.parse(res.getBody()) as { msg?: string }).msg ?? '';
  } catch {
    // not an envelope
  }
  if (status === 413) return { kind: msg.toLowerCase().includes('storage') ? 'quota' : 'tooLarge', message: msg };
  if (status === 400) {
    // A name rule the browser did not know of: no retry can succeed.
    const problem = problemOfMessage(msg);
    if (problem && problem.rule !== 'invalid') return { kind: 'invalidName', message: msg, text: { key: `errors.field.${problem.rule}`, params: problem.params } };
  }
  if (status === 409 || status === 400) return { kind: 'name', message: msg };
  if (status === 401) return { kind: 'auth', message: msg };
  return { kind: 'other', message: msg || `HTTP ${status}` };
}

async function freshToken(): Promise<string | undefined> {
  const pair = tokenStore.get();
  if (!pair) return undefined;
  if (Date.parse(pair.access_expires) - Date.now() < 30_000) await refreshSession().catch(() => false);
  return tokenStore.get()?.access_token;
}

async function start(it: Internal): Promise<void> {
  update(it, { status: 'uploading', speed: 0 });
  const { Upload } = await import('tus-js-client');
  if (it.status !== 'uploading') return; // paused or canceled meanwhile (they gave back the slot)
  const upload = new Upload(it.file, {
    endpoint: ENDPOINT,
    chunkSize: CHUNK,
    retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
    removeFingerprintOnSuccess: true,
    storeFingerprintForResuming: true,
    metadata: { path: it.targetPath, filetype: it.file.type || 'application/octet-stream' },
    fingerprint: async (file) => ['cirrus', it.targetPath, file.size, (file as File).lastModified].join(':'),
    onBeforeRequest: async (req) => {
      const token = await freshToken();
      if (token) req.setHeader('Authorization', `Bearer ${token}`);
    },
    onShouldRetry: (err, _attempt, options) => {
      const status = err.originalResponse?.getStatus() ?? 0;
      if (status === 401) return tokenStore.get() !== null; // the next request carries a refreshed token
      if (status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429) return false;
      return options.retryDelays !== null;
    },
    onProgress: (sent) => {
      // The first progress of a resumed upload starts at the server's offset.
      if (it.resuming && it.samples.length === 0 && it.resumedFrom === 0 && sent > 0) it.resumedFrom = sent;
      const now = performance.now();
      it.samples.push({ t: now, bytes: sent });
      while (it.samples.length > 2 && now - it.samples[0]!.t > 3000) it.samples.shift();
      const first = it.samples[0]!;
      const speed = now > first.t ? ((sent - first.bytes) / (now - first.t)) * 1000 : 0;
      update(it, { sent, speed });
    },
    onSuccess: () => {
      running--;
      update(it, { status: 'done', sent: it.size, speed: 0 });
      forgetPending(it.targetPath);
      for (const l of finishedListeners) l(it.targetPath);
      pump();
    },
    onError: (err) => {
      if (it.status !== 'uploading') return;
      running--;
      const error = classify(err);
      if (error.kind === 'network' && !navigator.onLine) update(it, { status: 'paused', autoPaused: true, speed: 0 });
      else update(it, { status: 'error', error, speed: 0 });
      pump();
    },
  });
  it.upload = upload;
  try {
    const previous = await upload.findPreviousUploads();
    const last = previous.sort((x, y) => Date.parse(y.creationTime) - Date.parse(x.creationTime))[0];
    if (last) {
      upload.resumeFromPreviousUpload(last);
      it.resuming = true;
    }
  } catch {
    // no storage: start fresh
  }
  rememberPending({ name: it.name, targetPath: it.targetPath, size: it.size });
  it.samples = [];
  if (it.status !== 'uploading') return;
  upload.start();
}

window.addEventListener('offline', () => {
  for (const it of items) {
    if (it.status === 'uploading') {
      void it.upload?.abort(false);
      running--;
      update(it, { status: 'paused', autoPaused: true, speed: 0 });
    }
  }
});
window.addEventListener('online', () => {
  for (const it of items) {
    if (it.status === 'paused' && it.autoPaused) {
      update(it, { status: 'queued', autoPaused: false });
      enqueue(it);
    }
  }
  pump();
});
