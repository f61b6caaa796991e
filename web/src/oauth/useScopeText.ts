// The scope descriptions of scopes.ts in the reader's language. scopes.ts
// stays the English source (and import-free: server tests read it);
// locales/<lang>/scopes.json translates it, keyed by the scope with "." as "_"
// (i18next reads "." as nesting). A missing translation falls back to English.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { SCOPE_DESCRIPTIONS, describeScope, type ScopeDescription } from './scopes';

export function useScopeText(): (scope: string) => ScopeDescription {
  const { t } = useTranslation();
  return useCallback(
    (scope: string) => {
      const base = describeScope(scope);
      if (!(scope in SCOPE_DESCRIPTIONS)) return { ...base, detail: t('authorize.unknownScope') };
      const key = `scopes.${scope.replace(/\./g, '_')}`;
      return { ...base, title: t(`${key}.title`, { defaultValue: base.title }), detail: t(`${key}.detail`, { defaultValue: base.detail }) };
    },
    [t],
  );
}
