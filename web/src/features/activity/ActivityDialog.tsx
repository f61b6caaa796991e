// The Activity panel of one file or folder (from its menu): its history,
// followed through renames; a folder's includes what happened beneath it.
import { Modal, ScrollArea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ActivityList } from './ActivityList';

export function ActivityDialog({ item, onClose }: { item: { name: string; path: string } | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={item !== null} onClose={onClose} title={item ? t('activity.titleNamed', { name: item.name }) : ''} centered size="lg" scrollAreaComponent={ScrollArea.Autosize}>
      {item && <ActivityList query={{ path: item.path }} label={t('activity.listOf', { name: item.name })} />}
    </Modal>
  );
}
