// Providers and the page for the current URL: theme, notifications, data
// cache, session; signed-in pages inside the shell, others bare.
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Busy } from '../components/Busy';
import { NotFoundPage } from '../pages/NotFoundPage';
import { AppLayout } from './AppLayout';
import { queryClient } from './queryClient';
import { matchPath, useLocation } from './router';
import { ROUTES } from './routes';
import { SessionProvider, useSession } from './session';
import { SignInPage } from './SignInPage';
import { theme } from './theme';
import { useTranslation } from 'react-i18next';

function resolve(pathname: string) {
  const clean = pathname.replace(/(.)\/+$/, '$1');
  for (const route of ROUTES) {
    const params = matchPath(route.path, clean);
    if (params) return { route, params };
  }
  return null;
}

function CurrentPage() {
  const { pathname } = useLocation();
  const { session } = useSession();
  const { t } = useTranslation();
  const match = resolve(pathname);
  if (!match) return <NotFoundPage />;
  const { route, params } = match;
  const Page = route.page;
  const loading = <Busy label={t('common.loading')} />;
  if (route.layout === 'bare') {
    return (
      <Suspense fallback={loading}>
        <Page params={params} />
      </Suspense>
    );
  }
  if (session.status === 'loading') return loading;
  if (session.status !== 'signed-in') return <SignInPage />;
  if (route.admin && !session.user.is_admin) return <NotFoundPage />;
  return (
    <AppLayout>
      <Suspense fallback={loading}>
        <Page key={route.path} params={params} />
      </Suspense>
    </AppLayout>
  );
}

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <Notifications position="bottom-right" />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <CurrentPage />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
