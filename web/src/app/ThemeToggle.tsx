// Light / dark: follows the system until the person picks one (Mantine keeps the choice).
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: true });
  const { t } = useTranslation();
  const dark = computed === 'dark';
  return (
    <ActionIcon variant="default" size="lg" onClick={() => setColorScheme(dark ? 'light' : 'dark')} aria-label={dark ? t('theme.toLight') : t('theme.toDark')}>
      {dark ? <IconSun size={18} aria-hidden="true" /> : <IconMoon size={18} aria-hidden="true" />}
    </ActionIcon>
  );
}
