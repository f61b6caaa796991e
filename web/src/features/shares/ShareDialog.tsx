// Share an item by link, like Google Drive and Nextcloud: an item that
// already has a link opens that link (copy, change its settings, or stop
// sharing) instead of a blank form that would make a second one; an item
// without one gets the form (password, expiry, download limit).
import { Alert, Button, Center, CopyButton, Divider, Group, Loader, Modal, NumberInput, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../app/format';
import { errorMessage } from '../../components/errorMessage';
import { createShare, deleteShare, sharesOf, updateShare, type Share, type ShareOptions } from './api';
import { isShared } from '../sharing/api';
import { PeopleSection } from '../sharing/PeopleSection';

const EXPIRY = [
  { value: 'never', seconds: 0 },
  { value: '1h', seconds: 3600 },
  { value: '1d', seconds: 86400 },
  { value: '7d', seconds: 7 * 86400 },
  { value: '30d', seconds: 30 * 86400 },
];
const MAX_LIMIT = 1_000_000;

export interface ShareDialogProps {
  /** Share this path (or open its existing link)… */
  path?: string;
  name?: string;
  /** …or edit this share. */
  share?: Share;
  onClose(): void;
}

interface FormProps {
  share: Share | null;
  path?: string;
  onDone(result: Share): void;
  onCancel(): void;
}

/** The settings of a new link, or of an existing one. */
function ShareForm({ share, path, onDone, onCancel }: FormProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [usePassword, setUsePassword] = useState(share?.has_password ?? false);
  const [password, setPassword] = useState('');
  const [expiry, setExpiry] = useState<string>(share ? 'keep' : 'never');
  const [limit, setLimit] = useState<number | ''>(share?.download_limit ?? '');
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
    setPasswordError(badPassword);
    setLimitError(badLimit);
    if (badPassword || badLimit) return;
    setBusy(true);
    try {
      const opts: ShareOptions = {};
      let result: Share;
      if (share) {
        if (!usePassword) opts.password = null;
        else if (password) opts.password = password;
        if (expiry === 'never') opts.expires_at = null;
        else if (expiry !== 'keep') opts.expires_in = EXPIRY.find((x) => x.value === expiry)!.seconds;
        opts.download_limit = limit === '' ? null : limit;
        result = await updateShare(share.id, opts);
      } else {
        if (usePassword) opts.password = password;
        const secs = EXPIRY.find((x) => x.value === expiry)?.seconds ?? 0;
        if (secs) opts.expires_in = secs;
        if (limit !== '') opts.download_limit = limit;
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
    share.has_password ? t('shares.facts.password') : t('shares.facts.noPassword'),
    share.expires_at ? t('shares.facts.expires', { date: formatDate(share.expires_at) }) : t('shares.facts.noExpiry'),
    share.download_limit !== null ? t('shares.facts.downloadsOf', { n: share.downloads, limit: share.download_limit }) : t('shares.facts.downloads', { n: share.downloads }),
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

type View = { kind: 'form' } | { kind: 'link'; note: 'existing' | 'created' | 'saved' };

export function ShareDialog({ path, name, share, onClose }: ShareDialogProps) {
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
  const notes = { existing: t('shares.existing'), created: t('shares.created'), saved: t('shares.saved') };

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
