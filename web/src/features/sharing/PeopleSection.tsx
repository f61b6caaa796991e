// "People" of the share dialog and the file details: who has access to an
// item, add a person or a group (suggested while typing, RecipientField) with
// a permission, remove.
import { ActionIcon, Alert, Badge, Button, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { IconTrash, IconUsers } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/errorMessage';
import { accessQuery, grantAccess, revokeAccess, type FileAccessGrant } from './api';
import { RecipientField, type Recipient } from './RecipientField';

function who(g: FileAccessGrant, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (g.user) return g.user.nickname ? `${g.user.nickname} <${g.user.email}>` : g.user.email;
  return t('sharing.groupNamed', { name: g.group?.name ?? '' });
}

/** The list of grants; with `editable`, the form to add one and the remove buttons. */
export function PeopleSection({ path, editable = true }: { path: string; editable?: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery(accessQuery(path));
  const [recipient, setRecipient] = useState('');
  const [picked, setPicked] = useState<Recipient | null>(null);
  const [permission, setPermission] = useState<'read' | 'write'>('read');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => {
    // "Shared by me" and the marks in My files read the grants too.
    void client.invalidateQueries({ queryKey: ['access-given'] });
    return client.invalidateQueries({ queryKey: ['file-access', path] });
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const value = recipient.trim();
    if (!value) return;
    setBusy(true);
    setError(null);
    try {
      // A suggestion picked names its person or group; typed text is an e-mail or
      // a UID ("group:3" or "#3" still names a group by id).
      const group = /^(?:group:|#)(\d+)$/i.exec(value);
      const target = picked ? (picked.kind === 'group' ? { group: picked.id } : { user: picked.login }) : group ? { group: Number(group[1]) } : { user: value };
      await grantAccess({ path, permission, ...target });
      setRecipient('');
      setPicked(null);
      await refresh();
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (id: string) => {
    try {
      await revokeAccess(id);
      await refresh();
    } catch (err) {
      setError(errorMessage(err, t));
    }
  };

  const permissions = [
    { value: 'read', label: t('sharing.canView') },
    { value: 'write', label: t('sharing.canEdit') },
  ];

  return (
    <Stack gap="xs" data-testid="people-section">
      <Group gap={6}>
        <IconUsers size={18} aria-hidden="true" />
        <Title order={3} fz="sm">
          {t('sharing.people')}
        </Title>
      </Group>
      {editable && (
        <form onSubmit={add}>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <RecipientField
              label={t('sharing.addPerson')}
              description={t('sharing.addPersonHint')}
              value={recipient}
              onChange={(text, choice) => {
                setRecipient(text);
                setPicked(choice);
              }}
            />
            <Select w={130} label={t('sharing.permission')} data={permissions} value={permission} onChange={(v) => setPermission(v === 'write' ? 'write' : 'read')} allowDeselect={false} />
            <Button type="submit" loading={busy} disabled={!recipient.trim()}>
              {t('sharing.add')}
            </Button>
          </Group>
        </form>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {query.isLoading ? (
        <Loader size="sm" aria-label={t('common.loading')} />
      ) : (query.data ?? []).length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('sharing.onlyYou')}
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('sharing.whoHasAccess')}>
          {(query.data ?? []).map((g) => (
            <Group key={g.id} component="li" justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {who(g, t)}
              </Text>
              <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                <Badge variant="light" tt="none" color={g.permission === 'write' ? 'indigo' : 'gray'}>
                  {g.permission === 'write' ? t('sharing.canEdit') : t('sharing.canView')}
                </Badge>
                {editable && (
                  <ActionIcon variant="subtle" color="red" onClick={() => void remove(g.id)} aria-label={t('sharing.remove', { name: who(g, t) })}>
                    <IconTrash size={16} aria-hidden="true" />
                  </ActionIcon>
                )}
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
