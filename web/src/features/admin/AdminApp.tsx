// The administrator dashboard at /admin (api-contract §10): a side navigation
// (Overview, Users, Groups, OAuth Apps, Shares, Audit log, Settings) and one page per
// entry. It is a 'bare' route of the shell (it draws its own frame) and uses
// the shell's providers (i18n, query cache, notifications, session).
// Signed-out visitors get the sign-in form; signed-in non-administrators a
// "not allowed" page (the admin API answers them 403 anyway).
import '../../styles/mantine-rest.css';
import '@mantine/charts/styles.css';
import './admin.css';
import './locales';
import { Alert, AppShell, Burger, Button, Group, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustments, IconApps, IconListDetails, IconArrowLeft, IconChartBar, IconLock, IconShare, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import { useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Busy } from '../../components/Busy';
import { CenteredLayout } from '../../components/CenteredLayout';
import { useSession } from '../../app/session';
import { SignInPage } from '../../app/SignInPage';
import { Link, useLocation } from '../../app/router';
import { GroupsPage } from './pages/GroupsPage';
import { OAuthAppPage } from './pages/OAuthAppPage';
import { OAuthAppsPage } from './pages/OAuthAppsPage';
import { OverviewPage } from './pages/OverviewPage';
import { SettingsPage } from './pages/SettingsPage';
import { SharesPage } from './pages/SharesPage';
import { UsersPage } from './pages/UsersPage';
import { NewOAuthAppPage } from './pages/NewOAuthAppPage';
import { AuditPage } from './pages/AuditPage';

const SECTIONS = [
  { path: '/admin', key: 'overview', icon: IconChartBar, page: OverviewPage },
  { path: '/admin/users', key: 'users', icon: IconUsers, page: UsersPage },
  { path: '/admin/groups', key: 'groups', icon: IconUsersGroup, page: GroupsPage },
  { path: '/admin/apps', key: 'apps', icon: IconApps, page: OAuthAppsPage },
  { path: '/admin/shares', key: 'shares', icon: IconShare, page: SharesPage },
  { path: '/admin/audit', key: 'audit', icon: IconListDetails, page: AuditPage },
  { path: '/admin/settings', key: 'settings', icon: IconAdjustments, page: SettingsPage },
] as const;

function route(pathname: string): { section: (typeof SECTIONS)[number]; Page: ComponentType<{ id?: string }>; id?: string } | null {
  const path = pathname.replace(/\/+$/, '') || '/admin';
  if (path === '/admin/apps/new') return { section: SECTIONS[3], Page: NewOAuthAppPage };
  const app = /^\/admin\/apps\/([^/]+)$/.exec(path);
  if (app) return { section: SECTIONS[3], Page: OAuthAppPage, id: decodeURIComponent(app[1]!) };
  const section = SECTIONS.find((s) => s.path === path);
  return section ? { section, Page: section.page } : null;
}

function NotAllowed() {
  const { t } = useTranslation();
  return (
    <CenteredLayout>
      <Stack align="center" ta="center">
        <IconLock size={40} aria-hidden />
        <Title order={1} fz={22}>
          {t('admin.notAllowed.title')}
        </Title>
        <Text c="var(--cirrus-muted)">{t('admin.notAllowed.body')}</Text>
        <Button component={Link} href="/" variant="default">
          {t('admin.nav.back')}
        </Button>
      </Stack>
    </CenteredLayout>
  );
}

function Dashboard() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const found = route(pathname);
  useEffect(() => {
    close();
    if (found) document.title = `${t(`admin.nav.${found.section.key}`)} · ${t('admin.title')}`;
  }, [pathname, close, found, t]);

  return (
    <AppShell className="cirrus-admin" header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('admin.nav.toggle')} />
            <Text fw={700} component={Link} href="/admin" style={{ textDecoration: 'none', color: 'inherit', whiteSpace: 'nowrap' }}>
              Cirrus · {t('admin.title')}
            </Text>
          </Group>
          <Button component={Link} href="/" variant="subtle" size="xs" leftSection={<IconArrowLeft size={14} aria-hidden />} visibleFrom="xs">
            {t('admin.nav.back')}
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('admin.nav.label')}>
        <ScrollArea>
          {SECTIONS.map((s) => (
            <NavLink
              key={s.key}
              component={Link}
              href={s.path}
              label={t(`admin.nav.${s.key}`)}
              leftSection={<s.icon size={18} aria-hidden />}
              active={found?.section.key === s.key}
              aria-current={found?.section.key === s.key ? 'page' : undefined}
            />
          ))}
          <NavLink component={Link} href="/" label={t('admin.nav.back')} leftSection={<IconArrowLeft size={18} aria-hidden />} hiddenFrom="xs" />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        {found ? (
          <found.Page id={found.id} />
        ) : (
          <Alert color="yellow" title={t('admin.notFound')}>
            <Link href="/admin">{t('admin.nav.overview')}</Link>
          </Alert>
        )}
      </AppShell.Main>
    </AppShell>
  );
}

function Gate() {
  const { t } = useTranslation();
  const { session } = useSession();
  if (session.status === 'loading') return <CenteredLayout><Busy label={t('admin.list.loading')} /></CenteredLayout>;
  if (session.status === 'error') {
    return (
      <CenteredLayout>
        <Alert color="red" role="alert">
          {session.message}
        </Alert>
      </CenteredLayout>
    );
  }
  if (session.status === 'signed-out') return <SignInPage />;
  if (!session.user.is_admin) return <NotAllowed />;
  return <Dashboard />;
}

export default function AdminApp() {
  return <Gate />;
}
