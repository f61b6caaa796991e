// Providers and the page for the current URL: theme, notifications, data
// cache, session; signed-in pages inside the shell, others bare.
import { MantineProvider } from '@mantine/core';
import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Busy } from '../components/Busy';
import { NotFoundPage } from '../pages/NotFoundPage';
import { matchPath, useLocation } from './router';
import { ROUTES, type RouteDef } from './routes';
import type { PageProps } from './page-props';
import { SessionProvider, useSession } from './session';
import { tokenStore } from '../api/tokens';
import { SignInPage } from './SignInPage';
import { theme } from './theme';
import { useTranslation } from 'react-i18next';

// The shell (header, navigation, uploads) is a chunk of its own: the sign-in
// and consent pages never load it.
const loadShell = () => import('./AppLayout').then((m) => ({ default: m.AppLayout }));
const loadQueries = () => import('./QueryProvider');
const QueryProvider = lazy(loadQueries);

// Notifications (container, transitions, drag, scroll-lock code) come in a
// chunk of their own, mounted only where a page can show one: the sign-in and
// consent pages (and the sign-in form) show none and never load it.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));
const withNotifications = (node: ReactNode) => (
  <>
    <Suspense fallback={null}>
      <Notifications position="bottom-right" />
    </Suspense>
    {node}
  </>
);

let shellParts: { Shell: ComponentType<{ children: ReactNode }>; Queries: ComponentType<{ children: ReactNode }> } | undefined;
const loadedPages = new Map<string, ComponentType<PageProps>>();

/**
 * A signed-in page inside the shell. Its chunks (shell, data cache, page) are
 * awaited together and then drawn at once: nested lazy boundaries would each
 * show their fallback, and React holds a boundary's content back for up to
 * 300 ms after a fallback appeared, so two in a row cost 0.3 s before the
 * first rows. Between pages the shell stays and only the page area waits.
 */
function ShellPage({ route, params, loading }: { route: RouteDef; params: Record<string, string>; loading: ReactNode }) {
  const [, rerender] = useState(0);
  const Page = loadedPages.get(route.path);
  const ready = shellParts !== undefined && Page !== undefined;
  useEffect(() => {
    if (ready) return;
    let live = true;
    void Promise.all([loadShell(), loadQueries(), route.page.preload()]).then(([shell, queries, page]) => {
      shellParts = { Shell: shell.default, Queries: queries.default };
      loadedPages.set(route.path, page.default);
      if (live) rerender((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [route, ready]);
  if (!shellParts) return <>{loading}</>;
  const { Shell, Queries } = shellParts;
  return (
    <Queries>
      <Shell>{Page ? <Page key={route.path} params={params} /> : loading}</Shell>
    </Queries>
  );
}

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
    return withNotifications(
      <Suspense fallback={loading}>
        <QueryProvider>{page}</QueryProvider>
      </Suspense>,
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
  return withNotifications(<ShellPage route={route} params={params} loading={loading} />);
}

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <SessionProvider>
        <CurrentPage />
      </SessionProvider>
    </MantineProvider>
  );
}
