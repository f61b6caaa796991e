// The Mantine theme. Colours were chosen for WCAG AA contrast in both schemes
// (dimmed text is darker than Mantine's default in light mode: styles.css).
// Plain objects rather than Modal.extend() etc.: importing a component here
// would put it in every page's first download.
import { createTheme } from '@mantine/core';
import i18n from './i18n';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Dark: shade 8, as white on shade 5 (#5c7cfa) is 3.7:1.
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // Close buttons that show only an icon need a name (axe: button-name).
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
    Alert: { defaultProps: { closeButtonLabel: i18n.t('common.close') } },
    // Initials in white on the indigo fill (the light variant's pale letters failed contrast).
    Avatar: { defaultProps: { variant: 'filled', color: 'indigo' } },
  },
});
