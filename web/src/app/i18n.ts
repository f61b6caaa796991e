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

// English (also every other language's fallback) is part of the first load;
// another language is fetched once, before the first render that needs it.
// The dashboard's texts (admin.json) travel with the dashboard's chunk
// (features/admin/locales.ts): neither is part of the 300 KB first load.
const english = import.meta.glob<Tree>(['../locales/en/*.json', '!../locales/en/admin.json'], { eager: true, import: 'default' });
// One chunk per language (locales/<lang>.ts), not one per file: fewer requests before the first render.
const others: Record<string, () => Promise<{ default: Record<string, Tree> }>> = { 'zh-CN': () => import('../locales/zh-CN') };

const areaOf = (file: string) => /([^/]+)\/([^/]+)\.json$/.exec(file) as unknown as [string, string, string] | null;

function resources(): Record<string, { translation: Tree }> {
  const translation: Tree = {};
  for (const [file, tree] of Object.entries(english)) {
    const m = areaOf(file);
    if (m) translation[m[2]] = tree;
  }
  return { en: { translation } };
}

const loaded = new Set<string>(['en']);

/** Fetches a language's texts (once) so that switching to it shows no English. */
export async function loadLanguage(lang: string): Promise<void> {
  const load = others[lang];
  if (loaded.has(lang) || !load) return;
  const files = (await load()).default;
  const trees = Object.entries(files).flatMap(([file, tree]) => {
    const m = areaOf(file);
    return m ? [[m[2], tree] as const] : [];
  });
  i18n.addResourceBundle(lang, 'translation', Object.fromEntries(trees), true, true);
  loaded.add(lang);
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
  void loadLanguage(lang).then(() => i18n.changeLanguage(lang));
}

/** Resolves when the texts of the language chosen at start are in (the entry point waits for it before rendering). */
export const ready: Promise<void> = loadLanguage(i18n.language).catch(() => {
  // Offline or a failed chunk: English (the fallback) is there.
});

export default i18n;
