// The consent screen: which app, which account, which permissions; Approve or Deny.
import { Alert, Anchor, Avatar, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import type { OAuthAppInfo, User } from '../../api/generated/schema';
import { AppAvatar } from '../../components/AppAvatar';
import { AlertIcon, ArrowsIcon, LinkIcon } from '../../components/icons';
import { ScopeList } from '../../components/ScopeList';

export interface ConsentPanelProps {
  app: OAuthAppInfo;
  user: User;
  scopes: readonly string[];
  /** Where approving sends the browser; the device page, which sends it nowhere, gives `notice` instead. */
  redirectHost?: string;
  notice?: string;
  busy: 'approve' | 'deny' | null;
  error: string | null;
  onApprove(): void;
  onDeny(): void;
  onSignOut(): void;
}

function safeHomepage(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

export function ConsentPanel({ app, user, scopes, redirectHost, notice, busy, error, onApprove, onDeny, onSignOut }: ConsentPanelProps) {
  const { t } = useTranslation();
  const homepage = safeHomepage(app.homepage_url);
  return (
    <Stack gap="lg">
      <Stack gap="xs" align="center" ta="center">
        <Group gap="sm" justify="center">
          <AppAvatar name={app.name} icon={app.icon} size={60} />
          <Text c="dimmed" aria-hidden="true">
            <ArrowsIcon size={22} />
          </Text>
          {/* Mantine's name-derived colours put white on some mid greens and reds below 4.5:1; the theme's light avatar always passes. */}
          <Avatar src={user.avatar_url ?? undefined} name={user.nickname || user.email} size={44} radius="xl" alt={t('authorize.you')} />
        </Group>
        <Title order={1} fz={22} mt="xs">
          {t('authorize.wantsAccess', { app: app.name })}
        </Title>
        {app.description && (
          <Text size="sm" c="dimmed">
            {app.description}
          </Text>
        )}
        {homepage && (
          <Anchor href={homepage} target="_blank" rel="noopener noreferrer" size="sm">
            <Group gap={4} component="span" wrap="nowrap">
              <LinkIcon size={14} />
              {new URL(homepage).host}
            </Group>
          </Anchor>
        )}
      </Stack>

      <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div style={{ minWidth: 0, flex: '1 1 12rem' }}>
            <Text size="xs" c="dimmed">
              {t('authorize.signedInAs')}
            </Text>
            <Text fw={600} size="sm" truncate="end">
              {user.nickname || user.email}
            </Text>
            <Text size="sm" c="dimmed" truncate="end">
              {user.email}
            </Text>
          </div>
          <Anchor component="button" type="button" size="sm" c="var(--cirrus-link-on-tint)" onClick={onSignOut} style={{ whiteSpace: 'nowrap' }}>
            {t('authorize.notYou')}
          </Anchor>
        </Group>
      </Paper>

      <div>
        <Text fw={600} size="sm" mb="sm">
          {t('authorize.willAllow', { app: app.name })}
        </Text>
        <ScopeList scopes={scopes} />
      </div>

      {error && (
        <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" title={t('common.error')}>
          {error}
        </Alert>
      )}

      <Divider />
      <Text size="xs" c="dimmed" ta="center">
        {notice ?? <Trans i18nKey="authorize.sendsYouTo" values={{ host: redirectHost }} components={{ b: <b /> }} />}
      </Text>
      <Group grow gap="sm">
        <Button variant="default" onClick={onDeny} loading={busy === 'deny'} disabled={busy !== null}>
          {t('authorize.deny')}
        </Button>
        <Button onClick={onApprove} loading={busy === 'approve'} disabled={busy !== null}>
          {t('authorize.approve')}
        </Button>
      </Group>
    </Stack>
  );
}
