// Settings → Sign-in methods: the identities linked to the account (an
// OpenID Connect provider or an LDAP directory), linking another provider
// (through the provider, in this browser) and removing one. The server
// refuses to remove the last way in; the page says so in the reader's language.
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, ErrorCode } from '../../api/client';
import type { LinkedIdentity } from '../../api/generated/schema';
import { formatDate } from '../../app/format';
import { Busy } from '../../components/Busy';
import { errorMessage } from '../../components/errorMessage';
import { useSiteConfig } from '../account/api';
import { ConfirmDialog } from '../files/dialogs';
import { listIdentities, startLinking, unlinkIdentity } from './api';

const KEY = ['user', 'identities'];

export default function SignInTab() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const identities = useQuery({ queryKey: KEY, queryFn: listIdentities });
  const providers = useSiteConfig().data?.sign_in_providers ?? [];
  const [removing, setRemoving] = useState<LinkedIdentity | null>(null);
  const [linking, setLinking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const link = async (providerId: string) => {
    setLinking(providerId);
    setError(null);
    try {
      const { url } = await startLinking(providerId);
      window.location.assign(url);
    } catch (err) {
      setError(errorMessage(err, t));
      setLinking(null);
    }
  };

  const remove = async (identity: LinkedIdentity) => {
    try {
      await unlinkIdentity(identity.id);
    } catch (err) {
      // 403: the last way in (no password, no passkey, no other identity).
      if (err instanceof ApiError && err.code === ErrorCode.Forbidden) throw new Error(t('settings.signIn.lastWay'));
      throw err;
    }
    notifications.show({ color: 'teal', message: t('settings.signIn.removed', { name: identity.provider_name }) });
    await qc.invalidateQueries({ queryKey: KEY });
  };

  const linked = new Set(identities.data?.map((i) => i.provider_id));
  const linkable = providers.filter((p) => !linked.has(p.id));

  return (
    <Stack gap="sm" component="section" aria-labelledby="sign-in-methods">
      <Title order={2} fz="lg" id="sign-in-methods">
        {t('settings.signIn.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('settings.signIn.intro')}
      </Text>
      {identities.isPending && <Busy label={t('common.loading')} />}
      {identities.isError && (
        <Alert color="red" role="alert">
          {errorMessage(identities.error, t)}
        </Alert>
      )}
      {identities.data?.length === 0 && <Text size="sm">{t('settings.signIn.none')}</Text>}
      {identities.data?.map((identity) => (
        <Paper key={identity.id} withBorder p="sm" component="article" aria-label={identity.provider_name}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
              <Group gap="xs">
                <Text fw={600}>{identity.provider_name}</Text>
                <Badge variant="light" color="gray">
                  {identity.provider_type === 'ldap' ? t('settings.signIn.ldap') : t('settings.signIn.oidc')}
                </Badge>
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {identity.login}
              </Text>
              <Text size="xs" c="dimmed">
                {t('settings.signIn.dates', {
                  linked: formatDate(identity.created_at),
                  used: identity.last_used_at ? formatDate(identity.last_used_at) : t('settings.signIn.never'),
                })}
              </Text>
            </Stack>
            <Button size="compact-sm" variant="subtle" color="red" onClick={() => setRemoving(identity)} aria-label={t('settings.signIn.removeOne', { name: identity.provider_name })}>
              {t('settings.signIn.remove')}
            </Button>
          </Group>
        </Paper>
      ))}
      {linkable.length > 0 && (
        <Stack gap="xs" mt="sm">
          <Title order={3} fz="md">
            {t('settings.signIn.linkTitle')}
          </Title>
          <Group gap="xs">
            {linkable.map((p) => (
              <Button key={p.id} variant="default" loading={linking === p.id} disabled={linking !== null} onClick={() => void link(p.id)}>
                {t('settings.signIn.link', { name: p.name })}
              </Button>
            ))}
          </Group>
        </Stack>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('settings.signIn.removeTitle', { name: removing?.provider_name ?? '' })}
        message={t('settings.signIn.removeMessage')}
        confirmLabel={t('settings.signIn.remove')}
        danger
        onClose={() => setRemoving(null)}
        onConfirm={() => remove(removing!)}
      />
    </Stack>
  );
}
