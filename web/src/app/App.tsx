// Providers and the page for the current URL: theme, notifications, data
// cache, session; signed-in pages inside the shell, others bare.
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { lazy, Suspense } from 'react';
import { Busy } from '../components/Busy';
import { NotFoundPage } from '../pages/NotFoundPage';
import { matchPath, useLocation } from './router';
import { ROUTES } from './routes';
import { SessionProvider, useSession } from './session';
import { tokenStore } from '../api/tokens';
import { SignInPage } from './SignInPage';
import { theme } from './theme';
import { useTranslation } from 'react-i18next';

// The shell (header, navigation, uploads) is a chunk of its own: the sign-in
// and consent pages never load it.
const loadShell = () => import('./AppLayout').then((m) => ({ default: m.AppLayout }));
const AppLayout = lazy(loadShell);
const loadQueries = () => import('./QueryProvider');
const QueryProvider = lazy(loadQueries);

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
    const page = <Page params={params} />;
    if (route.noQueries) return <Suspense fallback={loading}>{page}</Suspense>;
    void loadQueries();
    void route.page.preload();
    return (
      <Suspense fallback={loading}>
        <QueryProvider>{page}</QueryProvider>
      </Suspense>
    );
  }
  // The shell, the data cache and the page download together, and while the
  // session is still being checked when one is stored (not one after another).
  const preload = () => {
    void loadShell();
    void loadQueries();
    void route.page.preload();
  };
  if (session.status === 'loading') {
    if (tokenStore.get()) preload();
    return loading;
  }
  if (session.status !== 'signed-in') return <SignInPage />;
  if (route.admin && !session.user.is_admin) return <NotFoundPage />;
  preload();
  return (
    <Suspense fallback={loading}>
      <QueryProvider>
        <AppLayout>
          <Suspense fallback={loading}>
            <Page key={route.path} params={params} />
          </Suspense>
        </AppLayout>
      </QueryProvider>
    </Suspense>
  );
}

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <Notifications position="bottom-right" />
      <SessionProvider>
        <CurrentPage />
      </SessionProvider>
    </MantineProvider>
  );
}
