// Choose a destination folder (move, copy): browse folders from the root.
import { Breadcrumbs, Button, Group, Modal, NavLink, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconFolderFilled } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/errorMessage';
import { listFolder } from './api';

/** `already`: the folder the items are in (a move there would change nothing, so it cannot be picked). */
export function FolderPicker(props: { opened: boolean; title: string; confirmLabel: string; start: string; exclude: string[]; already?: string; onClose(): void; onPick(folder: string): Promise<void> }) {
  const { t } = useTranslation();
  const [path, setPath] = useState(props.start);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.opened) {
      setPath(props.start);
      setError(null);
    }
  }, [props.opened, props.start]);
  const { data, isLoading } = useQuery({ queryKey: ['picker', path], queryFn: () => listFolder(path, null, undefined, 1000), enabled: props.opened });
  const folders = (data?.files ?? []).filter((f) => f.type === 'folder' && !props.exclude.includes(f.path));
  const segs = path.split('/').filter(Boolean);
  const pick = async () => {
    setBusy(true);
    setError(null);
    try {
      await props.onPick(path);
      props.onClose();
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Stack>
        <Breadcrumbs separatorMargin={4} aria-label={t('files.location')}>
          <UnstyledButton onClick={() => setPath('/')} fz="sm">
            {t('nav.myFiles')}
          </UnstyledButton>
          {segs.map((s, i) => (
            <UnstyledButton key={i} fz="sm" onClick={() => setPath('/' + segs.slice(0, i + 1).join('/'))}>
              {s}
            </UnstyledButton>
          ))}
        </Breadcrumbs>
        <ScrollArea h={260} type="auto" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}>
          {isLoading && (
            <Text size="sm" c="dimmed" p="sm">
              {t('common.loading')}
            </Text>
          )}
          {!isLoading && folders.length === 0 && (
            <Text size="sm" c="dimmed" p="sm">
              {t('files.noSubfolders')}
            </Text>
          )}
          {folders.map((f) => (
            <NavLink key={f.id} label={f.name} leftSection={<IconFolderFilled size={18} color="var(--mantine-color-yellow-6)" aria-hidden="true" />} onClick={() => setPath(f.path)} />
          ))}
        </ScrollArea>
        {props.already === path && (
          <Text size="sm" c="dimmed">
            {t('files.alreadyHere')}
          </Text>
        )}
        {error && (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void pick()} loading={busy} disabled={props.already === path}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
