// WebDAV accounts. The section itself is built by the WebDAV feature
// (web/src/features/settings/dav/); until it lands this tab says where to
// connect and that accounts are managed here soon.
// >>> WEBDAV: mount the dav/ component here (e.g. `import { DavAccounts } from './dav/DavAccounts'`).
import { Alert, Code, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export default function DavTab() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Text size="sm">{t('settings.dav.intro')}</Text>
      <Code block>{`${window.location.origin}/dav/`}</Code>
      <Alert color="gray">{t('settings.dav.pending')}</Alert>
    </Stack>
  );
}
