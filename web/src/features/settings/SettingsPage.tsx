// /settings/<tab>: profile (with the UID), security (password, two-step
// verification, sessions), sign-in methods (linked providers), connected apps,
// WebDAV accounts, notifications, preferences.
import { Stack, Tabs, Title } from '@mantine/core';
import { IconApps, IconBell, IconServer, IconShieldLock, IconUser, IconAdjustments, IconKey } from '@tabler/icons-react';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router';
import type { PageProps } from '../../app/page-props';
import { Busy } from '../../components/Busy';
import { pageTitle } from '../account/api';

const ProfileTab = lazy(() => import('./ProfileTab'));
const SecurityTab = lazy(() => import('./SecurityTab'));
const SignInTab = lazy(() => import('./SignInTab'));
const AppsTab = lazy(() => import('./AppsTab'));
const DavTab = lazy(() => import('./DavTab'));
const PreferencesTab = lazy(() => import('./PreferencesTab'));
const NotificationsTab = lazy(() => import('./NotificationsTab'));

const TABS = [
  { value: 'profile', icon: IconUser, Page: ProfileTab },
  { value: 'security', icon: IconShieldLock, Page: SecurityTab },
  // The path the server's link callback comes back to (/settings/sign-in).
  { value: 'sign-in', icon: IconKey, Page: SignInTab },
  { value: 'apps', icon: IconApps, Page: AppsTab },
  { value: 'webdav', icon: IconServer, Page: DavTab },
  { value: 'notifications', icon: IconBell, Page: NotificationsTab },
  { value: 'preferences', icon: IconAdjustments, Page: PreferencesTab },
] as const;

export default function SettingsPage({ params }: PageProps) {
  const { t } = useTranslation();
  const tab = TABS.find((x) => x.value === params.tab) ?? TABS[0];
  useEffect(() => {
    document.title = pageTitle(`${t(`settings.tabs.${tab.value}`)} · ${t('nav.settings')}`);
  }, [t, tab.value]);
  return (
    <Stack maw={880}>
      <Title order={1} fz={24}>
        {t('nav.settings')}
      </Title>
      <Tabs value={tab.value} onChange={(v) => v && navigate(`/settings/${v}`)} keepMounted={false}>
        <Tabs.List style={{ flexWrap: 'wrap' }}>
          {TABS.map((x) => (
            <Tabs.Tab key={x.value} value={x.value} leftSection={<x.icon size={16} aria-hidden="true" />}>
              {t(`settings.tabs.${x.value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((x) => (
          <Tabs.Panel key={x.value} value={x.value} pt="lg">
            <Suspense fallback={<Busy label={t('common.loading')} />}>
              <x.Page />
            </Suspense>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
