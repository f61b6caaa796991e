// New OAuth App (auth-interface §2.1): once created, the app's page shows the
// Client ID, and the Client Secret this one time.
import { Anchor, Card, Stack, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, navigate } from '../../../app/router';
import { adminApi } from '../api';
import { OAuthAppForm } from '../components/OAuthAppForm';
import { rememberSecret } from './secret-once';

export function NewOAuthAppPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  return (
    <Stack maw={820}>
      <Anchor component={Link} href="/admin/apps" size="sm">
        ← {t('admin.nav.apps')}
      </Anchor>
      <Title order={1} fz={24}>
        {t('admin.apps.new')}
      </Title>
      <Card withBorder>
        <OAuthAppForm
          submitLabel={t('admin.apps.createSubmit')}
          onSubmit={async (fields) => {
            const app = await adminApi.createApp(fields);
            if (app.secret) rememberSecret(app.id, app.secret);
            await qc.invalidateQueries({ queryKey: ['admin'] });
            navigate(`/admin/apps/${encodeURIComponent(app.id)}`);
          }}
        />
      </Card>
    </Stack>
  );
}
