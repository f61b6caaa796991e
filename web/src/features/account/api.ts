// Account recovery calls (no session: the person cannot sign in) and the
// public site configuration (whether the site can send mail).
import { useQuery } from '@tanstack/react-query';
import i18n from 'i18next';
import { api, data } from '../../api/client';

export function getSiteConfig() {
  return data(api('none').GET('/api/v4/site/config'));
}

/** The site's public configuration, fetched once per page load (mail_enabled hides mail flows). */
export function useSiteConfig() {
  return useQuery({ queryKey: ['site-config'], queryFn: getSiteConfig, staleTime: 5 * 60_000 });
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
