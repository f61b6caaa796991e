// The frame of every signed-in page: header (brand, search, notifications, theme, user menu)
// and the sidebar (places and the storage bar). On a phone the sidebar folds
// behind the burger button.
import '../styles/mantine-rest.css';
import { AppShell, Badge, Burger, Group, NavLink, ScrollArea, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconActivity, IconFolder, IconPhoto, IconSettings, IconShare, IconTrash, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { SHARED_ROOT, sharedBadgeQuery } from '../features/sharing/api';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CloudIcon } from '../components/icons';
import { UploadPanel } from '../features/files/uploads/UploadPanel';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { filesUrl, Link, navigate, useLocation } from './router';
import { SearchBox } from './SearchBox';
import { StorageBar } from './StorageBar';
import { ThemeToggle } from './ThemeToggle';
import { UserMenu } from './UserMenu';
import { useSiteConfig } from '../features/account/api';

const SHARED_URL = filesUrl(SHARED_ROOT);

const PLACES = [
  { href: '/files', key: 'nav.myFiles', icon: IconFolder },
  { href: '/photos', key: 'nav.photos', icon: IconPhoto },
  { href: '/shared', key: 'nav.sharedWithMe', icon: IconUsers },
  { href: '/shares', key: 'nav.shares', icon: IconShare },
  { href: '/activity', key: 'nav.activity', icon: IconActivity },
  { href: '/trash', key: 'nav.trash', icon: IconTrash },
  { href: '/settings', key: 'nav.settings', icon: IconSettings },
] as const;

export function AppLayout({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const { t } = useTranslation();
  // The name the administrator gave the site (Dashboard → Settings).
  const siteName = useSiteConfig().data?.site_name ?? 'Cirrus';
  useEffect(close, [pathname, close]);
  // New shares since the person last opened "Shared with me" (the list marks them seen).
  const unseen = (useQuery(sharedBadgeQuery).data ?? []).filter((i) => i.new).length;

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm" wrap="nowrap" justify="space-between">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.toggleMenu')} />
            <UnstyledButton onClick={() => navigate('/files')} aria-label={t('nav.home')}>
              <Group gap={8} wrap="nowrap">
                <ThemeIcon size={32} radius="md" variant="gradient" gradient={{ from: 'indigo.6', to: 'cyan.6', deg: 135 }}>
                  <CloudIcon size={19} />
                </ThemeIcon>
                <Text fw={700} fz="lg" visibleFrom="xs">
                  {siteName}
                </Text>
              </Group>
            </UnstyledButton>
          </Group>
          <SearchBox />
          <Group gap="xs" wrap="nowrap">
            <NotificationBell />
            <ThemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label={t('nav.places')}>
        <AppShell.Section grow component={ScrollArea}>
          {PLACES.map((p) => {
            // Inside a folder shared with the person, "Shared with me" is where they are, not My files.
            const place = pathname === SHARED_URL || pathname.startsWith(SHARED_URL + '/') ? '/shared' : pathname;
            const active = place === p.href || place.startsWith(p.href + '/');
            return (
              <NavLink
                key={p.href}
                component={Link}
                href={p.href}
                label={t(p.key)}
                leftSection={<p.icon size={18} stroke={1.7} aria-hidden="true" />}
                rightSection={
                  p.href === '/shared' && unseen > 0 ? (
                    <Badge size="sm" color="red" circle aria-label={t('nav.newShares', { count: unseen })}>
                      {unseen}
                    </Badge>
                  ) : undefined
                }
                active={active}
                aria-current={active ? 'page' : undefined}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
              />
            );
          })}
        </AppShell.Section>
        <AppShell.Section>
          <StorageBar />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
      <UploadPanel />
    </AppShell>
  );
}
