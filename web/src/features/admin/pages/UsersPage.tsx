// Users: search by e-mail or nickname, create, edit (nickname, group, quota,
// ban), reset the password (a one-time password shown once), sign out of
// every session, extract the text of their files again (content search),
// delete (typing the e-mail to confirm).
import { Alert, Badge, Button, Group, Menu, Modal, ActionIcon, PasswordInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi, type AdminUser } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyField } from '../components/CopyField';
import { ListView, type Column } from '../components/ListView';
import { QuotaInput } from '../components/QuotaInput';
import { formatBytes, formatDate } from '../format';
import { FormActions } from '../components/FormActions';

type Action = { kind: 'edit' | 'reset' | 'signout' | 'reindex' | 'delete'; user: AdminUser } | { kind: 'create' } | null;

const WHOLE = { root: { overflow: 'visible', maxWidth: 'none' }, label: { overflow: 'visible', textOverflow: 'clip' } } as const;

export function UsersPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [action, setAction] = useState<Action>(null);
  const [oneTimePassword, setOneTimePassword] = useState<{ email: string; password: string } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['admin'] });
  const close = () => setAction(null);

  const columns: Column<AdminUser>[] = [
    {
      key: 'email',
      label: t('admin.users.email'),
      sortable: true,
      render: (u) => (
        <div>
          <Text size="sm" fw={500}>
            {u.email}
          </Text>
          <Text size="xs" c="var(--cirrus-muted)">
            {u.nickname}
          </Text>
        </div>
      ),
    },
    // The e-mail column shows the nickname too: its own column only where there is room.
    { key: 'nickname', label: t('admin.users.nickname'), sortable: true, wide: true, from: 'xl', render: (u) => u.nickname },
    // Badges in their own case and never cut short (a narrow column used to make "ADMINIS…", "AC…").
    { key: 'group', label: t('admin.users.group'), render: (u) => <Badge variant="dot" tt="none" color={u.is_admin ? 'grape' : 'gray'} styles={WHOLE}>{u.group.name}</Badge> },
    { key: 'status', label: t('admin.users.status'), render: (u) => <Badge color={u.status === 'active' ? 'teal' : 'red'} variant="dot" tt="none" styles={WHOLE}>{t(`admin.users.${u.status}`)}</Badge> },
    {
      key: 'storage',
      label: t('admin.users.storage'),
      wide: true,
      render: (u) => `${formatBytes(u.storage_used)} / ${formatBytes(u.storage_quota ?? u.group_storage_quota)}`,
    },
    { key: 'last', label: t('admin.users.lastSignIn'), wide: true, render: (u) => formatDate(u.last_sign_in_at, i18n.language) },
    { key: 'created_at', label: t('admin.users.created'), sortable: true, wide: true, render: (u) => formatDate(u.created_at, i18n.language) },
    {
      key: 'actions',
      label: t('admin.common.actions'),
      render: (u) => (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={t('admin.users.actionsFor', { email: u.email })}>
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setAction({ kind: 'edit', user: u })}>{t('admin.common.edit')}</Menu.Item>
            <Menu.Item onClick={() => setAction({ kind: 'reset', user: u })}>{t('admin.users.resetPassword')}</Menu.Item>
            <Menu.Item onClick={() => setAction({ kind: 'signout', user: u })}>{t('admin.users.signOut')}</Menu.Item>
            <Menu.Item onClick={() => setAction({ kind: 'reindex', user: u })}>{t('admin.users.reindex')}</Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => setAction({ kind: 'delete', user: u })}>
              {t('admin.common.delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ),
    },
  ];

  return (
    <Stack>
      <Title order={1} fz={24}>
        {t('admin.nav.users')}
      </Title>
      <ListView
        queryKey="users"
        load={adminApi.users}
        columns={columns}
        rowKey={(u) => u.id}
        searchLabel={t('admin.users.search')}
        defaultSort={{ by: 'created_at', direction: 'asc' }}
        emptyText={t('admin.users.empty')}
        toolbar={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAction({ kind: 'create' })}>
            {t('admin.users.create')}
          </Button>
        }
      />
      {action?.kind === 'create' && <UserForm onClose={close} onSaved={refresh} />}
      {action?.kind === 'edit' && <UserForm user={action.user} onClose={close} onSaved={refresh} />}
      <ConfirmDialog
        opened={action?.kind === 'reset'}
        onClose={close}
        title={t('admin.users.resetPassword')}
        consequence={action?.kind === 'reset' ? t('admin.users.resetConsequence', { email: action.user.email }) : ''}
        confirmLabel={t('admin.users.resetPassword')}
        onConfirm={async () => {
          if (action?.kind !== 'reset') return;
          const { password } = await adminApi.resetPassword(action.user.id);
          setOneTimePassword({ email: action.user.email, password });
        }}
      />
      <ConfirmDialog
        opened={action?.kind === 'signout'}
        onClose={close}
        title={t('admin.users.signOut')}
        consequence={action?.kind === 'signout' ? t('admin.users.signOutConsequence', { email: action.user.email }) : ''}
        confirmLabel={t('admin.users.signOut')}
        onConfirm={async () => {
          if (action?.kind !== 'signout') return;
          await adminApi.signOutUser(action.user.id);
          notifications.show({ color: 'teal', message: t('admin.users.signedOut', { email: action.user.email }) });
        }}
      />
      <ConfirmDialog
        opened={action?.kind === 'reindex'}
        onClose={close}
        title={t('admin.users.reindex')}
        consequence={action?.kind === 'reindex' ? t('admin.users.reindexConsequence', { email: action.user.email }) : ''}
        confirmLabel={t('admin.searchIndex.reindex')}
        color="blue"
        onConfirm={async () => {
          if (action?.kind !== 'reindex') return;
          const { queued } = await adminApi.reindex(action.user.id);
          notifications.show({ color: 'teal', message: t('admin.searchIndex.queued', { count: queued }) });
          await qc.invalidateQueries({ queryKey: ['admin', 'search-status'] });
        }}
      />
      <ConfirmDialog
        opened={action?.kind === 'delete'}
        onClose={close}
        title={t('admin.users.deleteTitle')}
        consequence={action?.kind === 'delete' ? t('admin.users.deleteConsequence', { email: action.user.email }) : ''}
        confirmLabel={t('admin.common.delete')}
        typeToConfirm={action?.kind === 'delete' ? action.user.email : undefined}
        onConfirm={async () => {
          if (action?.kind !== 'delete') return;
          await adminApi.deleteUser(action.user.id);
          await refresh();
        }}
      />
      <Modal opened={oneTimePassword !== null} onClose={() => setOneTimePassword(null)} title={t('admin.users.newPassword')} centered>
        {oneTimePassword && (
          <Stack>
            <Alert color="yellow">{t('admin.users.newPasswordNote', { email: oneTimePassword.email })}</Alert>
            <CopyField label={t('admin.users.oneTimePassword')} value={oneTimePassword.password} />
            <Group justify="flex-end">
              <Button onClick={() => setOneTimePassword(null)}>{t('admin.common.done')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

function UserForm({ user, onClose, onSaved }: { user?: AdminUser; onClose: () => void; onSaved: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: adminApi.groups });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [nickname, setNickname] = useState(user?.nickname ?? '');
  const [groupId, setGroupId] = useState<string | null>(user ? String(user.group.id) : null);
  const [quota, setQuota] = useState<number | null>(user?.storage_quota ?? null);
  // 'inactive': waiting for the person to confirm their address; it changes only when the administrator picks another status.
  const [status, setStatus] = useState<'active' | 'banned' | 'inactive'>(user?.status === 'banned' || user?.status === 'inactive' ? user.status : 'active');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      if (user) {
        await adminApi.updateUser(user.id, { nickname, group_id: groupId ? Number(groupId) : undefined, storage_quota: quota, ...(status !== user.status && status !== 'inactive' ? { status } : {}) });
      } else {
        await adminApi.createUser({ email, password, ...(nickname ? { nickname } : {}), ...(groupId ? { group_id: Number(groupId) } : {}) });
      }
      await onSaved();
      onClose();
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={user ? t('admin.users.editTitle', { email: user.email }) : t('admin.users.create')} centered>
      <Stack
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {!user && (
          <>
            <TextInput label={t('admin.users.email')} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} data-autofocus />
            <PasswordInput label={t('admin.users.password')} description={t('admin.users.passwordRule')} required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          </>
        )}
        <TextInput label={t('admin.users.nickname')} value={nickname} onChange={(e) => setNickname(e.currentTarget.value)} />
        <Select
          label={t('admin.users.group')}
          placeholder={t('admin.users.defaultGroup')}
          data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.is_admin ? `${g.name} (${t('admin.groups.admin')})` : g.name }))}
          value={groupId}
          onChange={setGroupId}
          clearable={!user}
        />
        {user && (
          <>
            <QuotaInput label={t('admin.users.quota')} description={t('admin.users.quotaHelp')} value={quota} onChange={setQuota} allowEmpty />
            <Select
              label={t('admin.users.status')}
              data={[
                ...(user.status === 'inactive' ? [{ value: 'inactive', label: t('admin.users.inactive') }] : []),
                { value: 'active', label: user.status === 'inactive' ? t('admin.users.activateNow') : t('admin.users.active') },
                { value: 'banned', label: t('admin.users.banned') },
              ]}
              value={status}
              allowDeselect={false}
              onChange={(v) => setStatus((v ?? 'active') as 'active' | 'banned' | 'inactive')}
            />
            {user.status === 'inactive' && status === 'inactive' && <Text size="sm" c="dimmed">{t('admin.users.inactiveHelp')}</Text>}
            {status === 'banned' && user.status !== 'banned' && <Alert color="orange">{t('admin.users.banConsequence')}</Alert>}
          </>
        )}
        <FormActions error={error} busy={busy} onCancel={onClose} submitLabel={user ? t('admin.common.save') : t('admin.users.create')} />
      </Stack>
    </Modal>
  );
}
