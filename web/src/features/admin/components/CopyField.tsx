// A read-only value with a copy button (client IDs, secrets, endpoint URLs).
import { ActionIcon, CopyButton, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function CopyField({ label, value, description, mono = true }: { label: string; value: string; description?: string; mono?: boolean }) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      readOnly
      styles={mono ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
      rightSection={
        <CopyButton value={value} timeout={1500}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('admin.common.copied') : t('admin.common.copy')} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('admin.common.copyWhat', { what: label })}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}
