// One checkbox per scope, grouped, each named by its identifier and described
// in the plain words of the consent page (web/src/oauth/scopes.ts).
import { Checkbox, Fieldset, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useScopeText } from '../../../oauth/useScopeText';

const IDENTITY = ['openid', 'profile', 'email', 'offline_access'];
const RESOURCES = ['Files', 'Shares', 'UserInfo', 'UserSecurityInfo', 'DavAccount', 'Workflow', 'Finance', 'Admin'];

export function ScopePicker({ value, onChange, error }: { value: string[]; onChange: (scopes: string[]) => void; error?: string | null }) {
  const { t } = useTranslation();
  const describeScope = useScopeText();
  const toggle = (scope: string, on: boolean) => onChange(on ? [...value, scope] : value.filter((s) => s !== scope));
  const box = (scope: string) => (
    <Checkbox
      key={scope}
      checked={value.includes(scope)}
      onChange={(e) => toggle(scope, e.currentTarget.checked)}
      label={
        <span>
          <Text span ff="monospace" size="sm" fw={600}>
            {scope}
          </Text>
          <Text span size="sm">
            {' '}
            · {describeScope(scope).title}
          </Text>
        </span>
      }
      description={describeScope(scope).detail}
    />
  );
  return (
    <Fieldset legend={t('admin.apps.scopes')} aria-describedby={error ? 'scopes-error' : undefined}>
      <Stack gap="md">
        <div>
          <Text size="sm" fw={700} mb={6}>
            {t('admin.apps.scopeGroupIdentity')}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            {IDENTITY.map(box)}
          </SimpleGrid>
        </div>
        {RESOURCES.map((r) => (
          <div key={r}>
            <Text size="sm" fw={700} mb={6}>
              {t(`admin.apps.scopeGroup.${r}`)}
            </Text>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
              {[`${r}.Read`, `${r}.Write`].map(box)}
            </SimpleGrid>
          </div>
        ))}
        {error && (
          <Text id="scopes-error" c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
