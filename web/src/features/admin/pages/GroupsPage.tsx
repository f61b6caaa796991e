// Groups: name, administrator rights and storage quota; the server refuses
// deleting a group with users, making the sign-up group an administrator
// group, and taking rights from the last administrators (its message is shown).
import { ActionIcon, Badge, Button, Checkbox, Group as Row, Modal, NumberInput, Stack, TextInput, Title } from '@mantine/core';
import { IconFolders, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { ApiError } from '../../../api/client';
import { adminApi, type Group } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ListView, pageOf, type Column } from '../components/ListView';
import { QuotaInput } from '../components/QuotaInput';
import { TeamFoldersDialog } from '../components/TeamFolders';
import { formatBytes } from '../format';
import { FormActions } from '../components/FormActions';

export function GroupsPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [teams, setTeams] = useState<Group | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['admin'] });

  const columns: Column<Group>[] = [
    { key: 'name', label: t('admin.groups.name'), sortable: true, render: (g) => g.name },
    { key: 'is_admin', label: t('admin.groups.rights'), sortable: true, render: (g) => <RightsBadge admin={g.is_admin} label={g.is_admin ? t('admin.groups.admin') : t('admin.groups.member')} /> },
    { key: 'storage_quota', label: t('admin.groups.quota'), sortable: true, render: (g) => formatBytes(g.storage_quota) },
    { key: 'max_versions', label: t('admin.groups.versions'), render: (g) => (g.max_versions === 0 ? t('admin.groups.versionsOff') : t('admin.groups.versionsKept', { n: g.max_versions, days: g.version_days })) },
    { key: 'user_count', label: t('admin.groups.users'), sortable: true, render: (g) => g.user_count },
    {
      key: 'actions',
      label: t('admin.common.actions'),
      render: (g) => (
        <Row gap={4} wrap="nowrap">
          <ActionIcon variant="subtle" color="gray" onClick={() => setEditing(g)} aria-label={t('admin.groups.editNamed', { name: g.name })}>
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="gray" onClick={() => setTeams(g)} aria-label={t('admin.groups.teamFoldersNamed', { name: g.name })} title={t('admin.groups.teamFolders')}>
            <IconFolders size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="red" onClick={() => setDeleting(g)} aria-label={t('admin.groups.deleteNamed', { name: g.name })}>
            <IconTrash size={16} />
          </ActionIcon>
        </Row>
      ),
    },
  ];

  return (
    <Stack>
      <Title order={1} fz={24}>
        {t('admin.nav.groups')}
      </Title>
      <ListView
        queryKey="groups-list"
        load={async (p) => pageOf(await adminApi.groups(), p, (g) => g.name, (g, k) => (k === 'is_admin' ? Number(g.is_admin) : (g[k as keyof Group] as string | number)))}
        columns={columns}
        rowKey={(g) => String(g.id)}
        searchLabel={t('admin.groups.search')}
        defaultSort={{ by: 'name', direction: 'asc' }}
        emptyText={t('admin.groups.empty')}
        toolbar={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('admin.groups.create')}
          </Button>
        }
      />
      {teams && <TeamFoldersDialog group={teams} onClose={() => setTeams(null)} />}
      {editing && <GroupForm group={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} onSaved={refresh} />}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('admin.groups.deleteTitle')}
        consequence={deleting ? t('admin.groups.deleteConsequence', { name: deleting.name }) : ''}
        confirmLabel={t('admin.common.delete')}
        onConfirm={async () => {
          if (!deleting) return;
          await adminApi.deleteGroup(deleting.id);
          await refresh();
        }}
      />
    </Stack>
  );
}

function GroupForm({ group, onClose, onSaved }: { group?: Group; onClose: () => void; onSaved: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const [name, setName] = useState(group?.name ?? '');
  const [isAdmin, setIsAdmin] = useState(group?.is_admin ?? false);
  const [quota, setQuota] = useState<number | null>(group?.storage_quota ?? 0);
  const [maxVersions, setMaxVersions] = useState<number | string>(group?.max_versions ?? 10);
  const [versionDays, setVersionDays] = useState<number | string>(group?.version_days ?? 30);
  // A new group starts from the default group's storage and versions (a 0 quota would make every upload of its members fail).
  const settings = useQuery({ queryKey: ['admin', 'settings'], queryFn: adminApi.settings, enabled: !group });
  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: adminApi.groups, enabled: !group });
  const base = (groups.data ?? []).find((g) => g.id === settings.data?.default_group_id);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (group || touched || !base) return;
    setQuota(base.storage_quota);
    setMaxVersions(base.max_versions);
    setVersionDays(base.version_days);
  }, [group, touched, base]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = { name, is_admin: isAdmin, storage_quota: quota ?? 0, max_versions: Number(maxVersions) || 0, version_days: Number(versionDays) || 1 };
      if (group) await adminApi.updateGroup(group.id, body);
      else await adminApi.createGroup(body);
      await onSaved();
      onClose();
    } catch (err) {
      // The one refusal of this form that is not about a field's value: say it in the reader's language.
      const lastAdmins = err instanceof ApiError && err.status === 403 && err.message.startsWith('is_admin:');
      setError(lastAdmins ? t('admin.groups.lastAdmins') : errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={group ? t('admin.groups.editNamed', { name: group.name }) : t('admin.groups.create')} centered>
      <Stack
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextInput label={t('admin.groups.name')} required value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
        <Checkbox label={t('admin.groups.isAdmin')} description={t('admin.groups.isAdminHelp')} checked={isAdmin} onChange={(e) => setIsAdmin(e.currentTarget.checked)} />
        <QuotaInput label={t('admin.groups.quota')} description={t('admin.groups.quotaHelp')} value={quota} onChange={(v) => { setTouched(true); setQuota(v); }} />
        <NumberInput label={t('admin.groups.maxVersions')} description={t('admin.groups.maxVersionsHelp')} min={0} max={1000} allowDecimal={false} value={maxVersions} onChange={(v) => { setTouched(true); setMaxVersions(v); }} />
        <NumberInput label={t('admin.groups.versionDays')} description={t('admin.groups.versionDaysHelp')} min={1} max={36500} allowDecimal={false} value={versionDays} onChange={(v) => { setTouched(true); setVersionDays(v); }} disabled={Number(maxVersions) === 0} />
        <FormActions error={error} busy={busy} onCancel={onClose} submitLabel={group ? t('admin.common.save') : t('admin.groups.create')} />
      </Stack>
    </Modal>
  );
}

/**
 * A group's rights. A badge clips its text to the width it is given; in a
 * narrow table cell (a phone) that cut "管理员" to "管…". This one keeps its
 * whole text: the column takes the width it needs.
 */
function RightsBadge({ admin, label }: { admin: boolean; label: string }) {
  return (
    <Badge color={admin ? 'grape' : 'gray'} variant="dot" styles={{ root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
      {label}
    </Badge>
  );
}
