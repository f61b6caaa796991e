// The requested permissions in plain words, one row each.
import { Badge, Group, List, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useScopeText } from '../oauth/useScopeText';
import { AlertIcon, CheckIcon } from './icons';

export function ScopeList({ scopes }: { scopes: readonly string[] }) {
  const { t } = useTranslation();
  const describeScope = useScopeText();
  return (
    <List spacing="sm" aria-label={t('authorize.requested')} listStyleType="none" styles={{ itemWrapper: { alignItems: 'flex-start' }, itemIcon: { marginTop: 2 } }}>
      {scopes.map((scope) => {
        const d = describeScope(scope);
        return (
          <List.Item
            key={scope}
            icon={
              <ThemeIcon size={26} radius="xl" variant="light" color={d.sensitive ? 'orange' : 'indigo'}>
                {d.sensitive ? <AlertIcon size={15} /> : <CheckIcon size={15} />}
              </ThemeIcon>
            }
          >
            <Group gap={6} wrap="wrap" align="center">
              <Text fw={600} size="sm">
                {d.title}
              </Text>
              {d.sensitive && (
                <Badge size="xs" color="orange" variant="light" style={{ flexShrink: 0, overflow: 'visible' }}>
                  {t('authorize.sensitive')}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {d.detail}
            </Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {scope}
            </Text>
          </List.Item>
        );
      })}
    </List>
  );
}
