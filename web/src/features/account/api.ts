// Account recovery calls (no session: the person cannot sign in) and the
// public site configuration (whether the site can send mail).
import { useEffect, useState } from 'react';
import i18n from 'i18next';
import { api, data } from '../../api/client';

export function getSiteConfig() {
  return data(api('none').GET('/api/v4/site/config'));
}

type SiteConfig = Awaited<ReturnType<typeof getSiteConfig>>;
const DEFAULT_SITE_NAME = 'Cirrus';

/** A page title: `text · <the site's name>` (Dashboard → Settings), Cirrus until the name is known. */
export function pageTitle(text: string): string {
  return `${text} · ${siteConfigValue?.site_name ?? DEFAULT_SITE_NAME}`;
}
let siteConfig: Promise<SiteConfig> | undefined;
let siteConfigValue: SiteConfig | undefined;

/**
 * The site's public configuration, fetched once per page load (mail_enabled
 * hides mail flows). Plain React state, not TanStack Query: the sign-in and
 * consent pages load no query client (app/routes.tsx `noQueries`).
 */
export function useSiteConfig(): { data: SiteConfig | undefined } {
  const [value, setValue] = useState<SiteConfig | undefined>(siteConfigValue);
  useEffect(() => {
    if (siteConfigValue !== undefined) return;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A failed load (a busy server's 503, a dropped connection) is tried again, 1, 2, 4… s apart
    // (at most 30 s): without it, a page that mounted during the failure never showed the site's
    // sign-in providers or mail flows until it was reloaded.
    const load = (attempt: number) => {
      siteConfig ??= getSiteConfig().then((v) => {
        siteConfigValue = v;
        // Titles set before the name was known end in the default; give them the site's name.
        if (v.site_name !== DEFAULT_SITE_NAME && document.title.endsWith(` · ${DEFAULT_SITE_NAME}`)) {
          document.title = document.title.slice(0, -DEFAULT_SITE_NAME.length) + v.site_name;
        }
        return v;
      });
      siteConfig.then(
        (v) => alive && setValue(v),
        () => {
          siteConfig = undefined; // this page, or a later one, tries again
          if (alive) timer = setTimeout(() => load(attempt + 1), Math.min(1000 * 2 ** attempt, 30_000));
        },
      );
    };
    load(0);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, []);
  return { data: value };
}

/** The mail is written in the language the person reads the app in. */
const language = () => ({ 'accept-language': i18n.language || 'en' });

export function requestReset(email: string) {
  return data(api('none').POST('/api/v4/user/reset', { body: { email }, headers: language() }));
}

export function checkResetLink(token: string) {
  return data(api('none').POST('/api/v4/user/reset/check', { body: { token } }));
}

export function completeReset(token: string, password: string) {
  return data(api('none').PATCH('/api/v4/user/reset', { body: { token, password } }));
}

export function resendActivation(email: string) {
  return data(api('none').POST('/api/v4/user/activate/resend', { body: { email } }));
}

export function confirmEmail(token: string) {
  return data(api('none').POST('/api/v4/user/email/confirm', { body: { token } }));
}
