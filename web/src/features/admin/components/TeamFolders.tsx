// A group's team folders (Dashboard → Groups): list with usage, create, edit
// (name, quota, the group's access), per-member access, delete. One dialog
// whose body switches between the list, the form and the member access.
import { ActionIcon, Alert, Button, Group as Row, Modal, Progress, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash, IconUserCog, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi, type Group, type TeamFolder } from '../api';
import { ConfirmDialog } from './ConfirmDialog';
import { QuotaInput } from './QuotaInput';
import { formatBytes } from '../format';
import { FormActions } from './FormActions';

type View = { kind: 'list' } | { kind: 'edit'; folder?: TeamFolder } | { kind: 'members'; folder: TeamFolder };
type Access = 'read' | 'write' | 'none';

export function TeamFoldersDialog({ group, onClose }: { group: Group; onClose: () => void }) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>({ kind: 'list' });
  const title =
    view.kind === 'list'
      ? t('admin.groups.teamFoldersNamed', { name: group.name })
      : view.kind === 'edit'
        ? view.folder
          ? t('admin.groups.editTeamFolder', { name: view.folder.name })
          : t('admin.groups.createTeamFolder')
        : t('admin.groups.overridesNamed', { name: view.folder.name });
  return (
    <Modal opened onClose={onClose} title={title} centered size="lg">
      {view.kind === 'list' && <FolderList group={group} onEdit={(folder) => setView({ kind: 'edit', folder })} onMembers={(folder) => setView({ kind: 'members', folder })} />}
      {view.kind === 'edit' && <FolderForm group={group} folder={view.folder} onDone={() => setView({ kind: 'list' })} />}
      {view.kind === 'members' && <MemberAccess group={group} folder={view.folder} onDone={() => setView({ kind: 'list' })} />}
    </Modal>
  );
}

function FolderList({ group, onEdit, onMembers }: { group: Group; onEdit: (f?: TeamFolder) => void; onMembers: (f: TeamFolder) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [deleting, setDeleting] = useState<TeamFolder | null>(null);
  const { data: folders, error } = useQuery({ queryKey: ['admin', 'team-folders', group.id], queryFn: () => adminApi.teamFolders(group.id) });
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('admin.groups.teamFoldersIntro')}
      </Text>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error, t)}
        </Alert>
      )}
      {folders && folders.length === 0 && <Text size="sm">{t('admin.groups.teamFoldersEmpty')}</Text>}
      {folders && folders.length > 0 && (
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.groups.teamFolderName')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('admin.groups.permission')}</Table.Th>
                <Table.Th>{t('admin.groups.teamFolderQuota')}</Table.Th>
                <Table.Th>{t('admin.common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {folders.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td>
                    <Text size="sm">{f.name}</Text>
                    {/* On a phone the access goes under the name, so the actions stay on screen. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      {t('admin.groups.permissionIs', { perm: f.permission === 'write' ? t('admin.groups.permWrite') : t('admin.groups.permRead') })}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{f.permission === 'write' ? t('admin.groups.permWrite') : t('admin.groups.permRead')}</Table.Td>
                  <Table.Td>
                    <Text size="xs">{t('admin.groups.teamFolderUsage', { used: formatBytes(f.storage_used), quota: formatBytes(f.storage_quota) })}</Text>
                    <Progress
                      value={f.storage_quota > 0 ? Math.min(100, (100 * f.storage_used) / f.storage_quota) : 100}
                      size="xs"
                      aria-label={t('admin.groups.teamFolderUsage', { used: formatBytes(f.storage_used), quota: formatBytes(f.storage_quota) })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Row gap={4} wrap="nowrap">
                      <ActionIcon variant="subtle" color="gray" onClick={() => onEdit(f)} aria-label={t('admin.groups.editTeamFolder', { name: f.name })}>
                        <IconPencil size={16} />
                      </ActionIcon>
                      <ActionIcon variant="subtle" color="gray" onClick={() => onMembers(f)} aria-label={t('admin.groups.overridesNamed', { name: f.name })}>
                        <IconUserCog size={16} />
                      </ActionIcon>
                      <ActionIcon variant="subtle" color="red" onClick={() => setDeleting(f)} aria-label={t('admin.groups.deleteTeamFolderNamed', { name: f.name })}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Row>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Row justify="flex-end">
        <Button leftSection={<IconPlus size={16} />} onClick={() => onEdit()}>
          {t('admin.groups.createTeamFolder')}
        </Button>
      </Row>
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('admin.groups.deleteTeamFolderTitle')}
        consequence={deleting ? t('admin.groups.deleteTeamFolderConsequence', { name: deleting.name }) : ''}
        confirmLabel={t('admin.common.delete')}
        typeToConfirm={deleting?.name}
        onConfirm={async () => {
          if (!deleting) return;
          await adminApi.deleteTeamFolder(deleting.id);
          await qc.invalidateQueries({ queryKey: ['admin'] });
        }}
      />
    </Stack>
  );
}

function FolderForm({ group, folder, onDone }: { group: Group; folder?: TeamFolder; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState(folder?.name ?? '');
  const [quota, setQuota] = useState<number | null>(folder?.storage_quota ?? 10 * 1024 ** 3);
  const [permission, setPermission] = useState<'read' | 'write'>(folder?.permission ?? 'write');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = { name, storage_quota: quota ?? 0, permission };
      if (folder) await adminApi.updateTeamFolder(folder.id, body);
      else await adminApi.createTeamFolder({ ...body, group_id: group.id });
      await qc.invalidateQueries({ queryKey: ['admin'] });
      onDone();
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <TextInput label={t('admin.groups.teamFolderName')} required value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
      <QuotaInput label={t('admin.groups.teamFolderQuota')} value={quota} onChange={setQuota} />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="team-folder-permission">
          {t('admin.groups.permission')}
        </Text>
        <SegmentedControl
          aria-labelledby="team-folder-permission"
          value={permission}
          onChange={(v) => setPermission(v as 'read' | 'write')}
          data={[
            { value: 'write', label: t('admin.groups.permWrite') },
            { value: 'read', label: t('admin.groups.permRead') },
          ]}
        />
      </Stack>
      <FormActions error={error} busy={busy} onCancel={onDone} submitLabel={folder ? t('admin.common.save') : t('admin.groups.createTeamFolder')} />
    </Stack>
  );
}

function MemberAccess({ group, folder, onDone }: { group: Group; folder: TeamFolder; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['admin', 'team-folder-members', folder.id];
  const { data: overrides } = useQuery({ queryKey: key, queryFn: () => adminApi.teamFolderOverrides(folder.id) });
  // The group's people: the first 100 users, filtered (a group with more is searched by e-mail in the user list).
  const { data: people } = useQuery({
    queryKey: ['admin', 'group-people', group.id],
    queryFn: async () => (await adminApi.users({ page: 1, page_size: 100 })).items.filter((u) => u.group.id === group.id),
  });
  const [user, setUser] = useState<string | null>(null);
  const [access, setAccess] = useState<Access>('read');
  const [error, setError] = useState<string | null>(null);
  const labels: Record<Access, string> = { read: t('admin.groups.permRead'), write: t('admin.groups.permWrite'), none: t('admin.groups.permNone') };
  const options = (['read', 'write', 'none'] as const).map((v) => ({ value: v, label: labels[v] }));
  const set = async (userId: string, permission: Access | null) => {
    setError(null);
    try {
      qc.setQueryData(key, await adminApi.setTeamFolderOverride(folder.id, userId, permission));
    } catch (err) {
      setError(errorMessage(err, t));
    }
  };
  const taken = new Set((overrides ?? []).map((o) => o.user_id));
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('admin.groups.overridesIntro', { perm: folder.permission === 'write' ? labels.write : labels.read })}
      </Text>
      {overrides && overrides.length === 0 && <Text size="sm">{t('admin.groups.overridesEmpty')}</Text>}
      {(overrides ?? []).map((o) => (
        <Row key={o.user_id} gap="xs" wrap="nowrap" justify="space-between">
          <Text size="sm" truncate style={{ minWidth: 0, flex: 1 }} title={o.email}>
            {o.nickname} · {o.email}
          </Text>
          <Select
            w={130}
            data={options}
            value={o.permission}
            allowDeselect={false}
            aria-label={t('admin.groups.accessOf', { name: o.nickname })}
            onChange={(v) => v && void set(o.user_id, v as Access)}
          />
          <ActionIcon variant="subtle" color="gray" onClick={() => void set(o.user_id, null)} aria-label={t('admin.groups.removeOverride', { name: o.nickname })}>
            <IconX size={16} />
          </ActionIcon>
        </Row>
      ))}
      <Row gap="xs" align="flex-end" wrap="wrap">
        <Select
          label={t('admin.groups.overrideUser')}
          searchable
          style={{ flex: 1, minWidth: 180 }}
          data={(people ?? []).filter((p) => !taken.has(p.id)).map((p) => ({ value: p.id, label: `${p.nickname} · ${p.email}` }))}
          value={user}
          onChange={setUser}
        />
        <Select label={t('admin.groups.overrideAccess')} w={130} data={options} value={access} allowDeselect={false} onChange={(v) => setAccess((v ?? 'read') as Access)} />
        <Button
          disabled={!user}
          onClick={async () => {
            if (!user) return;
            await set(user, access);
            setUser(null);
          }}
        >
          {t('admin.groups.addOverride')}
        </Button>
      </Row>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Row justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('admin.common.done')}
        </Button>
      </Row>
    </Stack>
  );
}
