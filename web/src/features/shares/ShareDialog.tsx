// Share an item by link, like Google Drive and Nextcloud: an item that
// already has a link opens that link (copy, change its settings, or stop
// sharing) instead of a blank form that would make a second one; an item
// without one gets the form (password, expiry, download limit). A folder can
// instead get an upload request (api-contract §13): people with the link send
// files into it and see nothing of it; its details list what was received.
import { Alert, Button, Center, CopyButton, Divider, Group, Loader, Modal, NumberInput, PasswordInput, SegmentedControl, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatSize } from '../../app/format';
import { errorMessage } from '../../components/errorMessage';
import { createShare, deleteShare, receivedFiles, sharesOf, updateShare, type Share, type ShareOptions } from './api';
import { isShared } from '../sharing/api';
import { PeopleSection } from '../sharing/PeopleSection';
import { PendingUploads } from './PendingUploads';

const EXPIRY = [
  { value: 'never', seconds: 0 },
  { value: '1h', seconds: 3600 },
  { value: '1d', seconds: 86400 },
  { value: '7d', seconds: 7 * 86400 },
  { value: '30d', seconds: 30 * 86400 },
];
const MAX_LIMIT = 1_000_000;
const MAX_FILES = 100_000;
const MB = 1024 * 1024;

export interface ShareDialogProps {
  /** Share this path (or open its existing link)… */
  path?: string;
  name?: string;
  /** Whether the item at `path` is a folder (it may then become an upload request). */
  folder?: boolean;
  /** …or edit this share. */
  share?: Share;
  onClose(): void;
}

interface FormProps {
  share: Share | null;
  path?: string;
  folder?: boolean;
  onDone(result: Share): void;
  onCancel(): void;
}

/** The settings of a new link, or of an existing one. */
function ShareForm({ share, path, folder, onDone, onCancel }: FormProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [mode, setMode] = useState<'view' | 'upload'>(share?.upload_only ? 'upload' : 'view');
  const uploadOnly = mode === 'upload';
  const [maxFiles, setMaxFiles] = useState<number | ''>(share?.max_files ?? '');
  const [maxMb, setMaxMb] = useState<number | ''>(share?.max_file_size ? Math.round(share.max_file_size / MB) : '');
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [usePassword, setUsePassword] = useState(share?.has_password ?? false);
  const [password, setPassword] = useState('');
  const [expiry, setExpiry] = useState<string>(share ? 'keep' : 'never');
  const [limit, setLimit] = useState<number | ''>(share?.download_limit ?? '');
  const [stripLocation, setStripLocation] = useState(share?.strip_location ?? true);
  const [notifyDownloads, setNotifyDownloads] = useState(share?.notify_downloads ?? false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [limitError, setLimitError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setPasswordError(null), [password, usePassword]);
  useEffect(() => setLimitError(null), [limit]);
  useEffect(() => setError(null), [password, expiry, limit]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const needsPassword = usePassword && (!share?.has_password || password.length > 0);
    const badPassword = needsPassword && password.length < 4 ? t('shares.passwordShort') : null;
    // 0 (or less) is refused, never rounded up to 1: leave it empty for no limit.
    const badLimit = limit !== '' && (limit < 1 || limit > MAX_LIMIT || !Number.isInteger(limit)) ? t('shares.limitRange') : null;
    const badUpload =
      uploadOnly && ((maxFiles !== '' && (maxFiles < 1 || maxFiles > MAX_FILES || !Number.isInteger(maxFiles))) || (maxMb !== '' && (maxMb < 1 || maxMb > 1024 * 1024 || !Number.isInteger(maxMb))))
        ? t('uploadLinks.range')
        : null;
    setPasswordError(badPassword);
    setLimitError(uploadOnly ? null : badLimit);
    setUploadError(badUpload);
    if (badPassword || (!uploadOnly && badLimit) || badUpload) return;
    setBusy(true);
    try {
      const opts: ShareOptions = {};
      let result: Share;
      if (share) {
        if (!usePassword) opts.password = null;
        else if (password) opts.password = password;
        if (expiry === 'never') opts.expires_at = null;
        else if (expiry !== 'keep') opts.expires_in = EXPIRY.find((x) => x.value === expiry)!.seconds;
        if (share.upload_only) {
          opts.max_files = maxFiles === '' ? null : maxFiles;
          opts.max_file_size = maxMb === '' ? null : maxMb * MB;
        } else {
          opts.download_limit = limit === '' ? null : limit;
          opts.strip_location = stripLocation;
          opts.notify_downloads = notifyDownloads;
        }
        result = await updateShare(share.id, opts);
      } else {
        if (usePassword) opts.password = password;
        const secs = EXPIRY.find((x) => x.value === expiry)?.seconds ?? 0;
        if (secs) opts.expires_in = secs;
        if (uploadOnly) {
          opts.upload_only = true;
          if (maxFiles !== '') opts.max_files = maxFiles;
          if (maxMb !== '') opts.max_file_size = maxMb * MB;
        } else {
          if (limit !== '') opts.download_limit = limit;
          opts.strip_location = stripLocation;
          if (notifyDownloads) opts.notify_downloads = true;
        }
        result = await createShare(path!, opts);
      }
      void qc.invalidateQueries({ queryKey: ['shares'] });
      onDone(result);
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  const expiryOptions = [...(share ? [{ value: 'keep', label: t('shares.expiry.keep') }] : []), ...EXPIRY.map((x) => ({ value: x.value, label: t(`shares.expiry.${x.value}`) }))];
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {folder && !share && (
          <SegmentedControl
            aria-label={t('uploadLinks.kind')}
            value={mode}
            onChange={(v) => setMode(v as 'view' | 'upload')}
            data={[
              { value: 'view', label: t('uploadLinks.viewLink') },
              { value: 'upload', label: t('uploadLinks.uploadRequest') },
            ]}
          />
        )}
        {uploadOnly && (
          <Text size="sm" c="dimmed">
            {t('uploadLinks.explain')}
          </Text>
        )}
        <Switch label={t('shares.protect')} checked={usePassword} onChange={(e) => setUsePassword(e.currentTarget.checked)} />
        {usePassword && (
          <PasswordInput
            label={t('shares.password')}
            description={share?.has_password ? t('shares.passwordKeep') : t('shares.passwordHint')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoComplete="new-password"
            error={passwordError}
            aria-invalid={Boolean(passwordError)}
          />
        )}
        <Select label={t('shares.expires')} data={expiryOptions} value={expiry} onChange={(v) => setExpiry(v ?? 'never')} allowDeselect={false} />
        {uploadOnly ? (
          <>
            <NumberInput
              label={t('uploadLinks.maxFiles')}
              description={t('shares.limitHint')}
              min={1}
              max={MAX_FILES}
              clampBehavior="none"
              value={maxFiles}
              onChange={(v) => setMaxFiles(typeof v === 'number' ? v : '')}
              allowDecimal={false}
              allowNegative={false}
            />
            <NumberInput
              label={t('uploadLinks.maxSize')}
              description={t('shares.limitHint')}
              min={1}
              clampBehavior="none"
              value={maxMb}
              onChange={(v) => setMaxMb(typeof v === 'number' ? v : '')}
              allowDecimal={false}
              allowNegative={false}
              error={uploadError}
            />
          </>
        ) : (
          <NumberInput
            label={t('shares.limit')}
            description={t('shares.limitHint')}
            min={1}
            max={MAX_LIMIT}
            clampBehavior="none"
            value={limit}
            onChange={(v) => setLimit(typeof v === 'number' ? v : '')}
            allowDecimal={false}
            allowNegative={false}
            error={limitError}
          />
        )}
        {!uploadOnly && (
          <Switch
            label={t('shares.stripLocation')}
            description={t('shares.stripLocationHint')}
            checked={stripLocation}
            onChange={(e) => setStripLocation(e.currentTarget.checked)}
          />
        )}
        {!uploadOnly && !share?.upload_only && (
          <Switch label={t('shares.notifyDownloads')} description={t('shares.notifyDownloadsHint')} checked={notifyDownloads} onChange={(e) => setNotifyDownloads(e.currentTarget.checked)} />
        )}
        {share?.upload_only && <ReceivedList share={share} />}
        {error && (
          <Alert color="red" role="alert" p="xs">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {share ? t('common.save') : t('shares.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface LinkProps {
  share: Share;
  note: string;
  onEdit(): void;
  onStopped(): void;
  onClose(): void;
}

/** An existing link: copy it, change its settings, or stop sharing. */
function ShareLink({ share, note, onEdit, onStopped, onClose }: LinkProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const facts = [
    ...(share.upload_only ? [t('uploadLinks.uploadRequest')] : []),
    share.has_password ? t('shares.facts.password') : t('shares.facts.noPassword'),
    share.expires_at ? t('shares.facts.expires', { date: formatDate(share.expires_at) }) : t('shares.facts.noExpiry'),
    share.upload_only
      ? share.max_files !== null
        ? t('uploadLinks.receivedOf', { n: share.uploads, limit: share.max_files })
        : t('uploadLinks.receivedCount', { n: share.uploads })
      : share.download_limit !== null
        ? t('shares.facts.downloadsOf', { n: share.downloads, limit: share.download_limit })
        : t('shares.facts.downloads', { n: share.downloads }),
    ...(share.upload_only && share.max_file_size !== null ? [t('uploadLinks.eachAtMost', { size: formatSize(share.max_file_size) })] : []),
    ...(share.upload_only ? [] : [share.strip_location ? t('shares.facts.noLocation') : t('shares.facts.location')]),
  ];
  const stop = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteShare(share.id);
      void qc.invalidateQueries({ queryKey: ['shares'] });
      notifications.show({ color: 'teal', message: t('shares.deleted') });
      onStopped();
    } catch (err) {
      setError(errorMessage(err, t));
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Text size="sm">{note}</Text>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput label={t('shares.link')} value={share.url} readOnly style={{ flex: 1, minWidth: 0 }} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton value={share.url}>
          {({ copied, copy }) => (
            <Button onClick={copy} color={copied ? 'teal' : undefined}>
              {copied ? t('common.copied') : t('shares.copyLink')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="xs" c="dimmed" data-testid="share-facts">
        {facts.join(' · ')}
      </Text>
      {share.upload_only && <ReceivedList share={share} />}
      {share.status !== 'active' && (
        <Alert color="orange" p="xs">
          {t(`shares.statusName.${share.status}`)}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert" p="xs">
          {error}
        </Alert>
      )}
      {confirming ? (
        <Stack gap="xs">
          <Text size="sm">{t('shares.stopConfirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="red" onClick={() => void stop()} loading={busy}>
              {t('shares.stop')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group justify="space-between">
          <Button variant="subtle" color="red" onClick={() => setConfirming(true)}>
            {t('shares.stop')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onEdit}>
              {t('shares.editSettings')}
            </Button>
            <Button onClick={onClose}>{t('common.done')}</Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}

/** What an upload request received: name, size, time and who sent it, newest first. */
function ReceivedList({ share }: { share: Share }) {
  const { t } = useTranslation();
  const received = useQuery({ queryKey: ['shares', 'received', share.id], queryFn: () => receivedFiles(share.id), staleTime: 0 });
  if (received.isLoading) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (received.error) return <Alert color="red" role="alert" p="xs">{errorMessage(received.error, t)}</Alert>;
  const files = received.data?.uploads ?? [];
  return (
    <Stack gap="xs">
      <PendingUploads share={share} />
      <Stack gap={4} data-testid="received-files">
        <Text size="sm" fw={600}>
          {t('uploadLinks.received')}
        </Text>
        {files.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('uploadLinks.nothingYet')}
          </Text>
        ) : (
          <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0, maxHeight: 220, overflowY: 'auto' }}>
            {files.map((f) => (
              <li key={f.id}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {f.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {[formatSize(f.size), formatDate(f.uploaded_at), f.uploader ? t('uploadLinks.from', { name: f.uploader }) : t('uploadLinks.anonymous')].join(' · ')}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Stack>
  );
}

type View = { kind: 'form' } | { kind: 'link'; note: 'existing' | 'created' | 'saved' };

export function ShareDialog({ path, name, folder, share, onClose }: ShareDialogProps) {
  const { t } = useTranslation();
  // An item opened from the file manager: its existing link, if it has one.
  const existing = useQuery({ queryKey: ['shares', 'of', path], queryFn: () => sharesOf(path!), enabled: !share && path !== undefined, retry: false, staleTime: 0, gcTime: 0 });
  const [current, setCurrent] = useState<Share | null>(share ?? null);
  const [view, setView] = useState<View | null>(share ? { kind: 'form' } : null);
  useEffect(() => {
    // Only an answer fetched for this opening: a cached one may name a link stopped since.
    if (view !== null || share || !existing.isFetchedAfterMount) return;
    const found = existing.data?.shares[0];
    if (found) {
      setCurrent(found);
      setView({ kind: 'link', note: 'existing' });
    } else setView({ kind: 'form' });
  }, [existing.isFetchedAfterMount, existing.data, share, view]);

  const itemName = current?.name ?? name ?? '';
  const title = view?.kind === 'form' && !current ? t('shares.createTitle', { name: itemName }) : current && view?.kind === 'form' ? t('shares.editTitle', { name: itemName }) : t('shares.linkTitle', { name: itemName });
  const notes = current?.upload_only
    ? { existing: t('uploadLinks.existing'), created: t('uploadLinks.created'), saved: t('shares.saved') }
    : { existing: t('shares.existing'), created: t('shares.created'), saved: t('shares.saved') };

  let body;
  if (view === null) {
    body = existing.error ? (
      <Alert color="red" role="alert">
        {errorMessage(existing.error, t)}
      </Alert>
    ) : (
      <Center py="md">
        <Loader size="sm" aria-label={t('common.loading')} />
      </Center>
    );
  } else if (view.kind === 'form') {
    body = (
      <ShareForm
        share={current}
        path={path}
        folder={folder}
        onDone={(result) => {
          setView({ kind: 'link', note: current ? 'saved' : 'created' });
          setCurrent(result);
        }}
        // Cancelling a change goes back to the link; cancelling a new link (or an edit from the list) closes.
        onCancel={() => (current && !share ? setView({ kind: 'link', note: 'existing' }) : onClose())}
      />
    );
  } else {
    body = <ShareLink share={current!} note={notes[view.note]} onEdit={() => setView({ kind: 'form' })} onStopped={onClose} onClose={onClose} />;
  }

  return (
    <Modal opened onClose={onClose} title={title} centered styles={{ title: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}>
      {body}
      {/* Google Drive's "Share with people" beside the link (only the owner manages who has access). */}
      {path && !share && !isShared(path) && (
        <>
          <Divider my="md" />
          <PeopleSection path={path} />
        </>
      )}
    </Modal>
  );
}
