// The dashboard's texts, added to i18next when the dashboard's chunk loads
// (app/i18n.ts keeps them out of the first load of every other page).
import i18n from '../../app/i18n';
import en from '../../locales/en/admin.json';
import zh from '../../locales/zh-CN/admin.json';

i18n.addResourceBundle('en', 'translation', { admin: en }, true, true);
i18n.addResourceBundle('zh-CN', 'translation', { admin: zh }, true, true);
