// Every Simplified Chinese text but the dashboard's, as one chunk: fetched
// once by app/i18n.ts when a reader's language is Chinese.
export default import.meta.glob<Record<string, unknown>>(['./zh-CN/*.json', '!./zh-CN/admin.json'], { eager: true, import: 'default' });
