// Create a share link for an item, or change an existing one: password,
// expiry, download limit; then copy the link.
import { Alert, Button, CopyButton, Group, Modal, NumberInput, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/errorMessage';
import { createShare, updateShare, type Share, type ShareOptions } from './api';

const EXPIRY = [
  { value: 'never', seconds: 0 },
  { value: '1h', seconds: 3600 },
  { value: '1d', seconds: 86400 },
  { value: '7d', seconds: 7 * 86400 },
  { value: '30d', seconds: 30 * 86400 },
];

export interface ShareDialogProps {
  /** Create a share of this path… */
  path?: string;
  name?: string;
  /** …or edit this share. */
  share?: Share;
  onClose(): void;
}

export function ShareDialog({ path, name, share, onClose }: ShareDialogProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [usePassword, setUsePassword] = useState(share?.has_password ?? false);
  const [password, setPassword] = useState('');
  const [expiry, setExpiry] = useState<string>(share ? 'keep' : 'never');
  const [limit, setLimit] = useState<number | ''>(share?.download_limit ?? '');
  const [result, setResult] = useState<Share | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setError(null), [password, expiry, limit]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (usePassword && password.length > 0 && password.length < 4) {
      setError(t('shares.passwordShort'));
      return;
    }
    if (usePassword && !share?.has_password && password.length === 0) {
      setError(t('shares.passwordShort'));
      return;
    }
    setBusy(true);
    try {
      const opts: ShareOptions = {};
      if (share) {
        if (!usePassword) opts.password = null;
        else if (password) opts.password = password;
        if (expiry === 'never') opts.expires_at = null;
        else if (expiry !== 'keep') opts.expires_in = EXPIRY.find((x) => x.value === expiry)!.seconds;
        opts.download_limit = limit === '' ? null : limit;
        setResult(await updateShare(share.id, opts));
      } else {
        if (usePassword) opts.password = password;
        const secs = EXPIRY.find((x) => x.value === expiry)?.seconds ?? 0;
        if (secs) opts.expires_in = secs;
        if (limit !== '') opts.download_limit = limit;
        setResult(await createShare(path!, opts));
      }
      void qc.invalidateQueries({ queryKey: ['shares'] });
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  const title = share ? t('shares.editTitle', { name: share.name ?? '' }) : t('shares.createTitle', { name: name ?? '' });
  const expiryOptions = [...(share ? [{ value: 'keep', label: t('shares.expiry.keep') }] : []), ...EXPIRY.map((x) => ({ value: x.value, label: t(`shares.expiry.${x.value}`) }))];

  return (
    <Modal opened onClose={onClose} title={title} centered styles={{ title: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}>
      {result ? (
        <Stack>
          <Text size="sm">{share ? t('shares.saved') : t('shares.created')}</Text>
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TextInput label={t('shares.link')} value={result.url} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={result.url}>
              {({ copied, copy }) => (
                <Button onClick={copy} color={copied ? 'teal' : undefined}>
                  {copied ? t('common.copied') : t('shares.copyLink')}
                </Button>
              )}
            </CopyButton>
          </Group>
          {result.has_password && (
            <Text size="xs" c="dimmed">
              {t('shares.passwordNote')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.done')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <Switch label={t('shares.protect')} checked={usePassword} onChange={(e) => setUsePassword(e.currentTarget.checked)} />
            {usePassword && (
              <PasswordInput
                label={t('shares.password')}
                description={share?.has_password ? t('shares.passwordKeep') : t('shares.passwordHint')}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                autoComplete="new-password"
              />
            )}
            <Select label={t('shares.expires')} data={expiryOptions} value={expiry} onChange={(v) => setExpiry(v ?? 'never')} allowDeselect={false} />
            <NumberInput label={t('shares.limit')} description={t('shares.limitHint')} min={1} max={1_000_000} value={limit} onChange={(v) => setLimit(typeof v === 'number' ? v : '')} allowDecimal={false} />
            {error && (
              <Alert color="red" role="alert" p="xs">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {share ? t('common.save') : t('shares.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
