// An error in the reader's language: known envelope codes have a translated
// sentence; the server's own message (English, specific) follows when it adds detail.
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';

export function errorMessage(err: unknown, t: TFunction): string {
  if (err instanceof ApiError) {
    const key = `errors.${err.code}`;
    const known = t(key, { defaultValue: '' });
    if (err.status === 0) return t('errors.network');
    // A lock: say how long it lasts, in the reader's language.
    if (err.code === 429 && err.retryAfter !== null) {
      const minutes = Math.ceil(err.retryAfter / 60);
      return err.retryAfter < 60 ? t('errors.429_seconds', { count: err.retryAfter }) : t('errors.429_minutes', { count: minutes });
    }
    if (known) return err.message && err.code !== 401 ? `${known} (${err.message})` : known;
    return err.message || t('common.error');
  }
  return err instanceof Error && err.message ? err.message : t('common.error');
}
