// Language and theme.
import { SegmentedControl, Select, Stack, Text, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../../app/i18n';

export default function PreferencesTab() {
  const { t, i18n } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Stack maw={420}>
      <Select
        label={t('settings.prefs.language')}
        data={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
        value={i18n.language}
        onChange={(v) => v && setLanguage(v as Language)}
        allowDeselect={false}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="theme-label">
          {t('theme.label')}
        </Text>
        <SegmentedControl
          aria-labelledby="theme-label"
          value={colorScheme}
          onChange={(v) => setColorScheme(v as MantineColorScheme)}
          data={[
            { value: 'auto', label: t('theme.auto') },
            { value: 'light', label: t('theme.light') },
            { value: 'dark', label: t('theme.dark') },
          ]}
        />
      </Stack>
    </Stack>
  );
}
