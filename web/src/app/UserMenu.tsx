// The account menu: who is signed in, Settings, Dashboard (administrators), Sign out.
import { Avatar, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconDashboard, IconLogout, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { avatarUrl } from '../features/settings/api';
import { navigate } from './router';
import { useSession } from './session';

export function UserMenu() {
  const { session, signOut } = useSession();
  const { t } = useTranslation();
  if (session.status !== 'signed-in') return null;
  const { user } = session;
  const name = user.nickname || user.email;
  // A session that began at a provider ends there too (the browser leaves for it and comes back to sign-in).
  const signOutHere = async () => {
    if (!(await signOut({ upstream: true }))) navigate('/');
  };
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        {/* Named by hidden text, not aria-label: the initials are visible text, and a label that leaves them out misleads voice control. */}
        <UnstyledButton style={{ borderRadius: '50%' }}>
          <Avatar src={avatarUrl(user)} name={name} radius="xl" size={36} alt="" data-testid="header-avatar" aria-hidden="true" />
          <VisuallyHidden>{t('nav.accountMenu')}</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item leftSection={<IconSettings size={16} aria-hidden="true" />} onClick={() => navigate('/settings')}>
          {t('nav.settings')}
        </Menu.Item>
        {user.is_admin && (
          <Menu.Item leftSection={<IconDashboard size={16} aria-hidden="true" />} onClick={() => navigate('/admin')}>
            {t('nav.dashboard')}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item leftSection={<IconLogout size={16} aria-hidden="true" />} onClick={() => void signOutHere()}>
          {t('auth.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
