// Settings → Security → Passkeys: the list (name, created, last used), add
// (named in a dialog with the current password, since an open session alone
// must not add a lasting way in; then the browser's own prompt), rename and remove. On
// a site opened by its IP address browsers refuse WebAuthn: the section says
// so instead of offering buttons that cannot work.
import { Alert, Button, Group, Modal, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../app/format';
import { errorMessage } from '../../components/errorMessage';
import { isCancelled, isIpAddress } from '../../api/session';
import { createPasskey } from '../../api/webauthn-ceremony';
import { ConfirmDialog } from '../files/dialogs';
import { addPasskey, listPasskeys, passkeyOptions, removePasskey, renamePasskey } from './api';

interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** The dialog that names a passkey: for a new one (with the password; then the browser asks), or to rename one. */
function NameDialog(props: { opened: boolean; title: string; initial: string; submitLabel: string; askPassword?: boolean; onClose(): void; onSubmit(name: string, password: string): Promise<void> }) {
  const { t } = useTranslation();
  const [name, setName] = useState(props.initial);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || (props.askPassword && !password)) return;
    setBusy(true);
    setError(null);
    try {
      await props.onSubmit(name.trim(), password);
      props.onClose();
    } catch (err) {
      if (!isCancelled(err)) setError(errorMessage(err, t));
      else props.onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title}>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput label={t('passkeys.nameLabel')} description={t('passkeys.nameHint')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={64} required withAsterisk={false} data-autofocus />
          {props.askPassword && (
            <PasswordInput
              label={t('passkeys.passwordLabel')}
              description={t('passkeys.passwordHint')}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              autoComplete="current-password"
              maxLength={128}
              required
              withAsterisk={false}
            />
          )}
          {error && (
            <Alert color="red" role="alert" p="xs">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('passkeys.cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!name.trim() || (props.askPassword === true && !password)}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function PasskeysSection() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const host = window.location.hostname;
  const onIp = isIpAddress(host);
  const supported = 'PublicKeyCredential' in window;
  const list = useQuery({ queryKey: ['passkeys'], queryFn: listPasskeys, enabled: !onIp });
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<PasskeyView | null>(null);
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['passkeys'] });
  const passkeys = (list.data ?? []) as PasskeyView[];

  const add = async (name: string, password: string) => {
    try {
      const response = await createPasskey((await passkeyOptions()) as Record<string, unknown>);
      await addPasskey(response, name, password);
    } catch (err) {
      if (isCancelled(err)) notifications.show({ color: 'gray', message: t('passkeys.cancelled') });
      throw err;
    }
    notifications.show({ color: 'teal', message: t('passkeys.added', { name }) });
    refresh();
  };

  return (
    <Stack gap="sm" aria-labelledby="passkeys-title" component="section">
      <Title order={2} fz="lg" id="passkeys-title">
        {t('passkeys.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('passkeys.intro')}
      </Text>
      {onIp ? (
        <Alert color="yellow" role="note">
          {t('passkeys.ipAddress', { host })}
        </Alert>
      ) : (
        <>
          {!supported && (
            <Alert color="yellow" role="note">
              {t('passkeys.unsupported')}
            </Alert>
          )}
          {list.error && (
            <Alert color="red" role="alert">
              {errorMessage(list.error, t)}
            </Alert>
          )}
          {list.isSuccess && passkeys.length === 0 && <Text size="sm">{t('passkeys.none')}</Text>}
          {passkeys.length > 0 && (
            <Table.ScrollContainer minWidth={480}>
              <Table aria-label={t('passkeys.title')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('passkeys.name')}</Table.Th>
                    <Table.Th>{t('passkeys.created')}</Table.Th>
                    <Table.Th>{t('passkeys.lastUsed')}</Table.Th>
                    <Table.Th ta="right">{t('passkeys.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {passkeys.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {p.name}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDate(p.created_at)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{p.last_used_at ? formatDate(p.last_used_at) : t('passkeys.never')}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button size="compact-sm" variant="subtle" onClick={() => setRenaming(p)} aria-label={t('passkeys.renameOne', { name: p.name })}>
                            {t('passkeys.rename')}
                          </Button>
                          <Button size="compact-sm" variant="subtle" color="red" onClick={() => setRemoving(p)} aria-label={t('passkeys.removeOne', { name: p.name })}>
                            {t('passkeys.remove')}
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {supported && (
            <Group>
              <Button variant="light" onClick={() => setAdding(true)}>
                {t('passkeys.add')}
              </Button>
            </Group>
          )}
        </>
      )}
      {adding && <NameDialog opened title={t('passkeys.namePrompt')} initial={t('passkeys.defaultName')} submitLabel={t('passkeys.add')} askPassword onClose={() => setAdding(false)} onSubmit={add} />}
      {renaming && (
        <NameDialog
          opened
          title={t('passkeys.renameOne', { name: renaming.name })}
          initial={renaming.name}
          submitLabel={t('passkeys.save')}
          onClose={() => setRenaming(null)}
          onSubmit={async (name) => {
            await renamePasskey(renaming.id, name);
            notifications.show({ color: 'teal', message: t('passkeys.renamed') });
            refresh();
          }}
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('passkeys.removeTitle')}
        message={t('passkeys.removeText', { name: removing?.name ?? '' })}
        confirmLabel={t('passkeys.remove')}
        danger
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await removePasskey(removing.id);
          notifications.show({ color: 'teal', message: t('passkeys.removed') });
          refresh();
        }}
      />
    </Stack>
  );
}
