// The WebDAV section of the settings: where to connect, the person's WebDAV
// accounts (one per device), a form to add one (name, folder, read-only), the
// generated password shown once, a new password on demand, when and by which
// client each was last used (sync clients' app passwords are accounts too), and
// delete (which cuts the device off at once).
import { Alert, Badge, Button, Card, Code, CopyButton, Group, Modal, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../app/format';
import { useSession } from '../../../app/session';
import { errorMessage } from '../../../components/errorMessage';
import { ConfirmDialog } from '../../files/dialogs';
import { createDavAccount, deleteDavAccount, listDavAccounts, regenerateDavPassword, type DavAccount, type NewDavAccount } from './api';

const QUERY = ['dav-accounts'];

function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code style={{ flex: 1, wordBreak: 'break-all' }} data-field={label}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? t('dav.copied') : t('dav.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

function CreateForm({ onCreated }: { onCreated(account: NewDavAccount): void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [path, setPath] = useState('/');
  const [readonly, setReadonly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await createDavAccount({ name: name.trim(), path: path.trim() || '/', readonly });
      setName('');
      setPath('/');
      setReadonly(false);
      onCreated(created);
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder component="form" onSubmit={submit} aria-label={t('dav.createTitle')}>
      <Stack gap="sm">
        <Title order={4}>{t('dav.createTitle')}</Title>
        <TextInput label={t('dav.name')} placeholder={t('dav.namePlaceholder')} value={name} onChange={(e) => setName(e.currentTarget.value)} required maxLength={128} />
        <TextInput label={t('dav.folder')} description={t('dav.folderHelp')} value={path} onChange={(e) => setPath(e.currentTarget.value)} />
        <Switch label={t('dav.readonly')} description={t('dav.readonlyHelp')} checked={readonly} onChange={(e) => setReadonly(e.currentTarget.checked)} />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy} disabled={name.trim() === ''}>
            {t('dav.create')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function DavAccounts() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { session } = useSession();
  const email = session.status === 'signed-in' ? session.user.email : '';
  const { data, error, isLoading } = useQuery({ queryKey: QUERY, queryFn: listDavAccounts });
  const [shown, setShown] = useState<NewDavAccount | null>(null);
  const [deleting, setDeleting] = useState<DavAccount | null>(null);
  const url = `${window.location.origin}/dav/`;
  const refresh = () => void qc.invalidateQueries({ queryKey: QUERY });
  const accounts = data?.accounts ?? [];
  return (
    <Stack>
      <Text size="sm">{t('dav.intro')}</Text>
      <CopyField label={t('dav.address')} value={url} />
      <CopyField label={t('dav.username')} value={email} />
      {isLoading && <Text size="sm">{t('common.loading')}</Text>}
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error, t)}
        </Alert>
      )}
      {!isLoading && !error && accounts.length === 0 && <Text c="dimmed">{t('dav.none')}</Text>}
      {accounts.map((a) => (
        <Card key={a.id} withBorder data-dav-account={a.id}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={4}>
              <Group gap="xs">
                <Text fw={600}>{a.name}</Text>
                {a.readonly && <Badge color="gray">{t('dav.readonlyBadge')}</Badge>}
              </Group>
              <Text size="xs" c="dimmed">
                {t('dav.folderIs', { path: a.path })} · {t('dav.createdAt', { date: formatDate(a.created_at) })}
              </Text>
              <Text size="xs" c="dimmed" data-last-seen={a.last_seen_at ?? ''}>
                {a.last_seen_at ? t('dav.lastSeen', { date: formatDate(a.last_seen_at) }) : t('dav.neverSeen')}
              </Text>
              {a.client && (
                <Text size="xs" c="dimmed" lineClamp={2} style={{ wordBreak: 'break-all' }} title={a.client} data-client>
                  {t('dav.clientIs', { client: a.client })}
                </Text>
              )}
            </Stack>
            <Group gap="xs" wrap="nowrap">
              <Button
                variant="default"
                size="xs"
                onClick={async () => {
                  try {
                    setShown(await regenerateDavPassword(a.id));
                  } catch (err) {
                    notifications.show({ color: 'red', message: errorMessage(err, t) });
                  }
                }}
              >
                {t('dav.newPassword')}
              </Button>
              <Button variant="default" color="red" size="xs" onClick={() => setDeleting(a)} aria-label={t('dav.deleteName', { name: a.name })}>
                {t('dav.delete')}
              </Button>
            </Group>
          </Group>
        </Card>
      ))}
      <CreateForm
        onCreated={(created) => {
          setShown(created);
          refresh();
        }}
      />
      <Modal opened={shown !== null} onClose={() => setShown(null)} title={t('dav.passwordTitle', { name: shown?.name ?? '' })} size="lg">
        {shown && (
          <Stack>
            <Alert color="yellow">{t('dav.passwordOnce')}</Alert>
            <CopyField label={t('dav.address')} value={url} />
            <CopyField label={t('dav.username')} value={email} />
            <CopyField label={t('dav.password')} value={shown.password} />
            <Group justify="flex-end">
              <Button onClick={() => setShown(null)}>{t('dav.done')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('dav.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('dav.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('dav.delete')}
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteDavAccount(deleting!.id);
          notifications.show({ color: 'teal', message: t('dav.deleted', { name: deleting!.name }) });
          refresh();
        }}
      />
    </Stack>
  );
}
