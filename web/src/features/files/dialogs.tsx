// Small dialogs of the file manager: a name (new folder, rename), a
// confirmation, and an item's details.
import { Box, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isShared } from '../sharing/api';
import { PeopleSection } from '../sharing/PeopleSection';
import { formatDate, formatSize } from '../../app/format';
import { errorMessage } from '../../components/errorMessage';
import type { FileItem } from './api';

/** Client-side check of the contract's name rule (§6, api/rules.ts); the server has the last word. */
export { nameProblem } from '../../api/rules';
import { nameProblem } from '../../api/rules';

export function NameDialog(props: { opened: boolean; title: string; label: string; initial: string; submitLabel: string; onClose(): void; onSubmit(name: string): Promise<void> }) {
  const { t } = useTranslation();
  const [name, setName] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (props.opened) {
      setName(props.initial);
      setError(null);
    }
  }, [props.opened, props.initial]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = nameProblem(name);
    if (problem) {
      setError(t(`files.nameRule.${problem.rule}`, { device: problem.device }));
      return;
    }
    setBusy(true);
    try {
      await props.onSubmit(name.trim());
      props.onClose();
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={props.label}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            data-autofocus
            onFocus={(e) => {
              // Select the name without its extension, as file managers do.
              const dot = e.currentTarget.value.lastIndexOf('.');
              e.currentTarget.setSelectionRange(0, dot > 0 ? dot : e.currentTarget.value.length);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function ConfirmDialog(props: { opened: boolean; title: string; message: string; confirmLabel: string; danger?: boolean; onClose(): void; onConfirm(): Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(null), [props.opened]);
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
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
        <Text size="sm">{props.message}</Text>
        {error && (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button color={props.danger ? 'red' : undefined} onClick={() => void confirm()} loading={busy} data-autofocus>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function DetailsDialog({ item, onClose, onVersions }: { item: FileItem | null; onClose(): void; onVersions?(item: FileItem): void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={item !== null} onClose={onClose} title={t('files.details')} centered size="lg">
      {item && (
        <Table variant="vertical" withTableBorder>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={140}>{t('common.name')}</Table.Th>
              <Table.Td style={{ wordBreak: 'break-all' }}>{item.name}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('files.path')}</Table.Th>
              <Table.Td style={{ wordBreak: 'break-all' }}>{item.path}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('common.type')}</Table.Th>
              <Table.Td>{item.type === 'folder' ? t('files.folder') : (item.mime_type ?? '—')}</Table.Td>
            </Table.Tr>
            {item.type === 'file' && (
              <Table.Tr>
                <Table.Th>{t('common.size')}</Table.Th>
                <Table.Td>
                  {formatSize(item.size)} ({item.size.toLocaleString()} B)
                </Table.Td>
              </Table.Tr>
            )}
            <Table.Tr>
              <Table.Th>{t('common.created')}</Table.Th>
              <Table.Td>{formatDate(item.created_at)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('common.modified')}</Table.Th>
              <Table.Td>{formatDate(item.updated_at)}</Table.Td>
            </Table.Tr>
            {item.type === 'file' && onVersions && (
              <Table.Tr>
                <Table.Th>{t('versions.menu')}</Table.Th>
                <Table.Td>
                  <Button size="compact-sm" variant="light" onClick={() => onVersions(item)}>
                    {t('versions.show')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            )}
            <Table.Tr>
              <Table.Th>{t('common.id')}</Table.Th>
              <Table.Td>
                <Group gap="xs">
                  <Code>{item.id}</Code>
                  <CopyButton value={item.id}>
                    {({ copied, copy }) => (
                      <Button size="compact-xs" variant="subtle" onClick={copy}>
                        {copied ? t('common.copied') : t('common.copy')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      )}
      {item && !isShared(item.path) && (
        <Box mt="md">
          <PeopleSection path={item.path} editable={false} />
        </Box>
      )}
    </Modal>
  );
}
