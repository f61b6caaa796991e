// i18next set-up. Every text of the app comes from web/src/locales/<lang>/<area>.json:
// each file is one top-level key (files.json -> t('files.…')), so a feature adds
// its own file (admin.json -> admin.*) without touching anyone else's.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh-CN', label: '简体中文' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const STORAGE_KEY = 'cirrus.lang';
type Tree = Record<string, unknown>;

const files = import.meta.glob<Tree>('../locales/*/*.json', { eager: true, import: 'default' });

function resources(): Record<string, { translation: Tree }> {
  const out: Record<string, { translation: Tree }> = {};
  for (const [file, tree] of Object.entries(files)) {
    const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!m) continue;
    const [, lang, area] = m as unknown as [string, string, string];
    (out[lang] ??= { translation: {} }).translation[area] = tree;
  }
  return out;
}

function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && LANGUAGES.some((l) => l.code === saved)) return saved as Language;
  } catch {
    // storage blocked: fall through to the browser's languages
  }
  for (const lang of navigator.languages ?? [navigator.language]) {
    if (/^zh\b/i.test(lang)) return 'zh-CN';
    if (/^en\b/i.test(lang)) return 'en';
  }
  return 'en';
}

void i18n.use(initReactI18next).init({
  resources: resources(),
  lng: initialLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});

function applyDocumentLanguage(lang: string): void {
  document.documentElement.lang = lang;
}
applyDocumentLanguage(i18n.language);
i18n.on('languageChanged', applyDocumentLanguage);

export function setLanguage(lang: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // not persisted; still switch for this page
  }
  void i18n.changeLanguage(lang);
}

export default i18n;
