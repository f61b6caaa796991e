// An error in the reader's language: known envelope codes have a translated
// sentence; the server's own message (English, specific) follows when it adds detail.
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';

export function errorMessage(err: unknown, t: TFunction): string {
  if (err instanceof ApiError) {
    const key = `errors.${err.code}`;
    const known = t(key, { defaultValue: '' });
    if (err.status === 0) return t('errors.network');
    if (known) return err.message && err.code !== 401 ? `${known} (${err.message})` : known;
    return err.message || t('common.error');
  }
  return err instanceof Error && err.message ? err.message : t('common.error');
}
