// The route table of the web app. Each page is its own chunk (lazy), so the
// first load carries only the shell and the page asked for.
//
// layout: 'shell' = header + sidebar, signed-in only (a signed-out visitor gets
//         the sign-in form and comes back here afterwards);
//         'bare'  = the page draws its own frame (sign-in, authorize, public share).
// admin:  only administrators (others see "not found").
//
// To add a page: one entry here. Feature code lives in web/src/features/<name>/.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageProps } from './page-props';

type PageModule = { default: ComponentType<PageProps> };

export interface RouteDef {
  path: string;
  page: LazyExoticComponent<ComponentType<PageProps>> & { preload: () => Promise<PageModule> };
  layout: 'shell' | 'bare';
  admin?: boolean;
  /** A bare page that uses no TanStack Query (it then loads none: App.tsx). */
  noQueries?: boolean;
}

/** A lazily loaded page; `preload()` starts its download early (the shell and the page load in parallel). */
const page = (load: () => Promise<PageModule>) => Object.assign(lazy(load), { preload: load });

export const ROUTES: RouteDef[] = [
  { path: '/', layout: 'bare', noQueries: true, page: page(() => import('../features/home/HomePage')) },
  { path: '/session/authorize', layout: 'bare', noQueries: true, page: page(() => import('../pages/AuthorizePage')) },
  // Where "Sign in with <provider>" comes back (the server's SSO callback redirects here).
  { path: '/session/sso', layout: 'bare', page: page(() => import('../pages/sso/SsoPage')) },
  { path: '/session/logout', layout: 'bare', page: page(() => import('../pages/logout/LogoutPage')) },
  { path: '/device', layout: 'bare', page: page(() => import('../pages/device/DevicePage')) },
  // Login Flow v2 and v1 (sync clients' "Log in"): Nextcloud's paths.
  { path: '/index.php/login/v2/flow/:id', layout: 'bare', page: page(() => import('../pages/loginflow/LoginFlowPage')) },
  { path: '/index.php/login/flow/:id', layout: 'bare', page: page(() => import('../pages/loginflow/LoginFlowPage')) },
  { path: '/signup', layout: 'bare', page: page(() => import('../features/account/SignUpPage')) },
  { path: '/forgot', layout: 'bare', page: page(() => import('../features/account/ForgotPage')) },
  { path: '/reset', layout: 'bare', page: page(() => import('../features/account/ResetPage')) },
  { path: '/activate', layout: 'bare', page: page(() => import('../features/account/ActivatePage')) },
  { path: '/verify-email', layout: 'bare', page: page(() => import('../features/account/VerifyEmailPage')) },
  { path: '/s/:id', layout: 'bare', page: page(() => import('../features/shares/PublicSharePage')) },
  { path: '/files', layout: 'shell', page: page(() => import('../features/files/FilesPage')) },
  { path: '/files/*', layout: 'shell', page: page(() => import('../features/files/FilesPage')) },
  { path: '/photos', layout: 'shell', page: page(() => import('../features/photos/PhotosPage')) },
  { path: '/search', layout: 'shell', page: page(() => import('../features/files/SearchPage')) },
  { path: '/activity', layout: 'shell', page: page(() => import('../features/activity/ActivityPage')) },
  { path: '/trash', layout: 'shell', page: page(() => import('../features/files/TrashPage')) },
  { path: '/shared', layout: 'shell', page: page(() => import('../features/sharing/SharedPage')) },
  { path: '/shares', layout: 'shell', page: page(() => import('../features/shares/SharesPage')) },
  { path: '/notifications', layout: 'shell', page: page(() => import('../features/notifications/NotificationsPage')) },
  { path: '/settings', layout: 'shell', page: page(() => import('../features/settings/SettingsPage')) },
  { path: '/settings/:tab', layout: 'shell', page: page(() => import('../features/settings/SettingsPage')) },
  // The dashboard draws its own frame (side navigation) and its own "not allowed" page.
  { path: '/admin', layout: 'bare', page: page(() => import('../features/admin/AdminApp')) },
  { path: '/admin/*', layout: 'bare', page: page(() => import('../features/admin/AdminApp')) },
];
