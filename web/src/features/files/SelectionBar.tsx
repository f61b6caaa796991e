// The bar above a file list: the page's own buttons, or, while items are
// selected, the selection's actions in their place. It keeps one fixed
// height either way, so nothing under the pointer (or a finger) moves when a
// click selects a row (Google Drive's selection bar does the same).
import { CloseButton, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function SelectionBar({ count, onClear, actions, children }: { count: number; onClear(): void; actions: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="cirrus-actionbar">
      {count > 0 ? (
        <Group className="cirrus-actionbar-selection" role="toolbar" aria-label={t('files.selectionActions', { count })} gap={6} wrap="nowrap">
          <CloseButton size="lg" onClick={onClear} aria-label={t('files.clearSelection')} />
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} aria-live="polite">
            {t('files.selected', { count })}
          </Text>
          <Group gap={6} wrap="nowrap" ml="auto">
            {actions}
          </Group>
        </Group>
      ) : (
        children
      )}
    </div>
  );
}
