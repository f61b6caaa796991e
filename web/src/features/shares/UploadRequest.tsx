// /s/:id for an upload request (api-contract §13): a drop zone and a "Choose
// files" button, an optional "Your name", per-file progress, and the list of
// what this visitor sent. Nothing of the folder is shown (the server tells
// nothing). Uploads are tus 1.0 through /api/v4/share/upload/:id; tus-js-client
// keeps each upload's URL in localStorage, so choosing the same file again
// after a reload resumes it. Loaded only by upload-request pages (with
// tus-js-client), so the other share pages stay as small as before.
import { ActionIcon, Alert, Box, Button, Group, Progress, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCloudUpload, IconRefresh, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Upload } from 'tus-js-client';
import { formatDate, formatSize } from '../../app/format';
import type { PublicShare } from './api';

type Status = 'queued' | 'uploading' | 'done' | 'error' | 'canceled';
/** Why an upload stopped, in words the page has in every language. */
type Problem = 'tooLarge' | 'limit' | 'expired' | 'busy' | 'quota' | 'gone' | 'locked' | 'name' | 'network';

interface Item {
  key: number;
  file: File;
  sent: number;
  status: Status;
  problem?: Problem;
  /** The server's words, for a refused name (they say which rule). */
  detail?: string;
  upload?: Upload;
}

const CONCURRENCY = 3;
const CHUNK = 8 * 1024 * 1024;
const NAME_KEY = 'cirrus.uploadRequest.name';
let nextKey = 1;

function problemOf(err: unknown): { problem: Problem; detail?: string } {
  const res = (err as { originalResponse?: { getStatus(): number; getBody(): string } | null }).originalResponse;
  if (!res) return { problem: 'network' };
  let body: { msg?: string; data?: { reason?: string } | null } = {};
  try {
    body = JSON.parse(res.getBody()) as typeof body;
  } catch {
    // not an envelope
  }
  const reason = body.data?.reason;
  if (reason === 'file_too_large') return { problem: 'tooLarge' };
  if (reason === 'limit_reached') return { problem: 'limit' };
  if (reason === 'expired') return { problem: 'expired' };
  if (reason === 'busy') return { problem: 'busy' };
  const status = res.getStatus();
  if (status === 413) return { problem: 'quota' };
  if (status === 403) return { problem: 'locked' };
  if (status === 404) return { problem: 'gone' };
  if (status === 400) return { problem: 'name', detail: body.msg };
  return { problem: 'network' };
}

export default function UploadRequest({ id, share, token, onLocked }: { id: string; share: PublicShare; token: string | null; onLocked(): void }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Item[]>([]);
  const [name, setName] = useState(() => localStorage.getItem(NAME_KEY) ?? '');
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Keys of the items already handed to tus (an effect may run again before an item's state says so).
  const started = useRef(new Set<number>());

  const patch = (key: number, change: Partial<Item>) => setItems((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i)));

  useEffect(() => {
    const running = items.filter((i) => i.status === 'uploading').length;
    const next = items.filter((i) => i.status === 'queued' && !started.current.has(i.key)).slice(0, Math.max(0, CONCURRENCY - running));
    for (const it of next) {
      started.current.add(it.key);
      void start(it);
    }
    // start() reads the current name and token; a new file starts with what is typed then.
  }, [items]);

  async function start(it: Item): Promise<void> {
    const { Upload } = await import('tus-js-client');
    const uploader = name.trim();
    const upload = new Upload(it.file, {
      endpoint: `/api/v4/share/upload/${encodeURIComponent(id)}`,
      chunkSize: CHUNK,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      removeFingerprintOnSuccess: true,
      storeFingerprintForResuming: true,
      headers: token ? { 'X-Share-Token': token } : {},
      metadata: { filename: it.file.name, filetype: it.file.type || 'application/octet-stream', ...(uploader ? { uploader } : {}) },
      fingerprint: async (file) => ['cirrus-request', id, (file as File).name, file.size, (file as File).lastModified].join(':'),
      onShouldRetry: (err, _attempt, options) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        if (status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429) return false;
        // Busy: say so while tus waits and tries again, instead of a silent spinner.
        if (options.retryDelays !== null && problemOf(err).problem === 'busy') patch(it.key, { problem: 'busy' });
        return options.retryDelays !== null;
      },
      onProgress: (sent) => patch(it.key, { sent, problem: undefined }),
      onSuccess: () => patch(it.key, { status: 'done', sent: it.file.size, problem: undefined }),
      onError: (err) => {
        const { problem, detail } = problemOf(err);
        patch(it.key, { status: 'error', problem, detail });
        if (problem === 'locked') onLocked();
      },
    });
    patch(it.key, { status: 'uploading', upload });
    try {
      const previous = await upload.findPreviousUploads();
      const last = previous.sort((x, y) => Date.parse(y.creationTime) - Date.parse(x.creationTime))[0];
      if (last) upload.resumeFromPreviousUpload(last);
    } catch {
      // no storage: start fresh
    }
    upload.start();
  }

  const add = (files: FileList | File[] | null) => {
    if (!files) return;
    const added: Item[] = [];
    for (const file of Array.from(files)) {
      // Refused here already when it cannot fit (the server checks again).
      const tooBig = share.max_file_size !== null && file.size > share.max_file_size;
      added.push({ key: nextKey++, file, sent: 0, status: tooBig ? 'error' : 'queued', problem: tooBig ? 'tooLarge' : undefined });
    }
    setItems((list) => [...list, ...added]);
  };

  const cancel = (it: Item) => {
    // abort(true) also terminates the upload on the server, which frees its slot.
    void it.upload?.abort(true).catch(() => undefined);
    patch(it.key, { status: 'canceled' });
  };
  const retry = (it: Item) => {
    started.current.delete(it.key);
    patch(it.key, { status: 'queued', problem: undefined, detail: undefined, upload: undefined, sent: 0 });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    add(e.dataTransfer.files);
  };

  const limits = [
    share.max_files !== null ? t('uploadRequest.maxFiles', { count: share.max_files }) : null,
    share.max_file_size !== null ? t('uploadRequest.maxSize', { size: formatSize(share.max_file_size) }) : null,
    share.expires_at ? t('uploadRequest.until', { date: formatDate(share.expires_at) }) : null,
  ].filter(Boolean);
  const done = items.filter((i) => i.status === 'done');
  const shown = items.filter((i) => i.status !== 'canceled' && i.status !== 'done');

  return (
    <Stack>
      <div>
        <Title order={1} fz={22}>
          {t('uploadRequest.title', { owner: share.owner.nickname })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('uploadRequest.hint', { owner: share.owner.nickname })}
        </Text>
        {limits.length > 0 && (
          <Text size="sm" c="dimmed" data-testid="upload-limits">
            {limits.join(' · ')}
          </Text>
        )}
      </div>
      {!share.accepting ? (
        <Alert color="yellow" role="status">
          {t('uploadRequest.full')}
        </Alert>
      ) : (
        <>
          <TextInput
            label={t('uploadRequest.yourName')}
            description={t('uploadRequest.yourNameHint')}
            value={name}
            maxLength={100}
            autoComplete="name"
            onChange={(e) => {
              setName(e.currentTarget.value);
              try {
                localStorage.setItem(NAME_KEY, e.currentTarget.value);
              } catch {
                // storage blocked: the name is kept for this page only
              }
            }}
          />
          <Box
            data-testid="drop-zone"
            onDragOver={(e) => {
              e.preventDefault();
              setOver(true);
            }}
            onDragLeave={() => setOver(false)}
            onDrop={onDrop}
            p="xl"
            style={{
              border: `2px dashed var(--mantine-color-${over ? 'indigo-6' : 'gray-5'})`,
              borderRadius: 'var(--mantine-radius-md)',
              background: over ? 'var(--mantine-color-indigo-light)' : undefined,
              textAlign: 'center',
            }}
          >
            <Stack align="center" gap="xs">
              <IconCloudUpload size={40} aria-hidden="true" />
              {/* A phone has nothing to drag from: the button alone. */}
              <Text visibleFrom="sm">{t('uploadRequest.drop')}</Text>
              <Button onClick={() => input.current?.click()}>{t('uploadRequest.choose')}</Button>
              <input
                ref={input}
                type="file"
                multiple
                className="sr-only"
                tabIndex={-1}
                aria-label={t('uploadRequest.choose')}
                onChange={(e) => {
                  add(e.currentTarget.files);
                  e.currentTarget.value = '';
                }}
              />
            </Stack>
          </Box>
        </>
      )}
      {shown.length > 0 && (
        <Stack gap="sm" aria-live="polite">
          {shown.map((it) => {
            const pct = it.file.size > 0 ? Math.floor((it.sent / it.file.size) * 100) : 0;
            const problem = it.problem
              ? it.status === 'uploading'
                ? t('uploadRequest.problem.busyRetrying')
                : it.problem === 'name' && it.detail
                ? t('uploadRequest.problem.name', { msg: it.detail })
                : t(`uploadRequest.problem.${it.problem}`, { size: formatSize(share.max_file_size) })
              : null;
            return (
              <Box key={it.key}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                    {it.file.name}
                  </Text>
                  <Group gap={4} wrap="nowrap">
                    <Text size="xs" c="dimmed">
                      {it.status === 'uploading' ? `${pct}%` : formatSize(it.file.size)}
                    </Text>
                    {it.status === 'error' && (it.problem === 'network' || it.problem === 'busy') && (
                      <ActionIcon variant="subtle" onClick={() => retry(it)} aria-label={t('uploadRequest.retryOf', { name: it.file.name })}>
                        <IconRefresh size={16} aria-hidden="true" />
                      </ActionIcon>
                    )}
                    {(it.status === 'uploading' || it.status === 'queued' || it.status === 'error') && (
                      <ActionIcon variant="subtle" color="gray" onClick={() => cancel(it)} aria-label={t(it.status === 'error' ? 'uploadRequest.removeOf' : 'uploadRequest.cancelOf', { name: it.file.name })}>
                        <IconX size={16} aria-hidden="true" />
                      </ActionIcon>
                    )}
                  </Group>
                </Group>
                <Progress value={it.status === 'error' ? 100 : pct} color={it.status === 'error' ? 'red' : 'indigo'} size="sm" aria-label={t('uploadRequest.progressOf', { name: it.file.name })} />
                {problem && (
                  <Text size="xs" c="red.8" role="alert">
                    {problem}
                  </Text>
                )}
              </Box>
            );
          })}
        </Stack>
      )}
      {done.length > 0 && (
        <Box data-testid="sent-list">
          <Title order={2} fz="md" mb="xs">
            {t('uploadRequest.sent', { count: done.length })}
          </Title>
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {done.map((it) => (
              <Group component="li" key={it.key} gap="xs" wrap="nowrap">
                <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden="true" />
                <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {it.file.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatSize(it.file.size)}
                </Text>
              </Group>
            ))}
          </Stack>
        </Box>
      )}
    </Stack>
  );
}
