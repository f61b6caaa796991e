// Routes of the web app. New pages (files, settings, admin) register here.
import type { ComponentType } from 'react';
import { SessionProvider } from './components/SessionProvider';
import { AuthorizePage } from './pages/AuthorizePage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { useLocation } from './router';

const ROUTES: Record<string, ComponentType> = {
  '/': HomePage,
  '/session/authorize': AuthorizePage,
};

export function App() {
  const { pathname } = useLocation();
  const Page = ROUTES[pathname.replace(/(.)\/+$/, '$1')] ?? NotFoundPage;
  return (
    <SessionProvider>
      <Page />
    </SessionProvider>
  );
}
