// Site settings: name, sign-up, the default group, and token lifetimes in
// human units, checked against the allowed ranges with the error on the field,
// how long file activity is kept; then the sign-in providers and e-mail.
// (The audit log's retention is on the Audit log page.)
import { Alert, Button, Card, Center, Group, Loader, NumberInput, Select, Stack, Switch, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi, type Group as UserGroup, type SiteSettings } from '../api';
import { DurationInput } from '../components/DurationInput';
import { MailSettings } from './MailSettings';
import { SignInProviders } from './SignInProviders';

/** The server's ranges (docs/api.md, PATCH /admin/settings). */
export const ACCESS_TTL = { min: 60, max: 86_400 };
export const REFRESH_TTL = { min: 3600, max: 400 * 86_400 };
export const RETENTION_DAYS = { min: 0, max: 36_500 };

export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: ['admin', 'settings'], queryFn: adminApi.settings });
  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: adminApi.groups });
  if (settings.isPending || groups.isPending) return <Center py="xl"><Loader aria-label={t('admin.list.loading')} /></Center>;
  if (settings.isError) return <Alert color="red" role="alert">{errorMessage(settings.error, t)}</Alert>;
  if (groups.isError) return <Alert color="red" role="alert">{errorMessage(groups.error, t)}</Alert>;
  return <SettingsForm initial={settings.data} groups={groups.data} />;
}

function SettingsForm({ initial, groups }: { initial: SiteSettings; groups: UserGroup[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [siteName, setSiteName] = useState(initial.site_name);
  const [signup, setSignup] = useState(initial.signup_enabled);
  const [defaultGroup, setDefaultGroup] = useState(String(initial.default_group_id));
  const [accessTtl, setAccessTtl] = useState<number | null>(initial.access_token_ttl);
  const [refreshTtl, setRefreshTtl] = useState<number | null>(initial.refresh_token_ttl);
  const [shareWith, setShareWith] = useState(initial.share_with);
  const [mapTileUrl, setMapTileUrl] = useState(initial.map_tile_url);
  const [mapAttribution, setMapAttribution] = useState(initial.map_attribution);
  const [activityDays, setActivityDays] = useState<number | string>(initial.activity_retention_days);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const validate = () => {
    const e: Record<string, string | null> = {};
    if (!siteName.trim()) e.site_name = t('admin.settings.siteNameRequired');
    if (accessTtl === null || accessTtl < ACCESS_TTL.min || accessTtl > ACCESS_TTL.max) e.access = t('admin.settings.accessRange');
    if (refreshTtl === null || refreshTtl < REFRESH_TTL.min || refreshTtl > REFRESH_TTL.max) e.refresh = t('admin.settings.refreshRange');
    const days = typeof activityDays === 'number' ? activityDays : Number.NaN;
    if (!Number.isInteger(days) || days < RETENTION_DAYS.min || days > RETENTION_DAYS.max) e.activity = t('admin.settings.activityRetentionRange');
    const tiles = mapTileUrl.trim();
    if (tiles && !(/^https?:\/\/[^\s]+$/.test(tiles) && ['{z}', '{x}', '{y}'].every((p) => tiles.includes(p)))) e.map = t('admin.settings.mapTileUrlInvalid');
    setErrors(e);
    return Object.keys(e).length === 0;
  };

  const save = async () => {
    setServerError(null);
    if (!validate()) return;
    setBusy(true);
    try {
      await adminApi.updateSettings({ site_name: siteName.trim(), signup_enabled: signup, default_group_id: Number(defaultGroup), access_token_ttl: accessTtl!, refresh_token_ttl: refreshTtl!, share_with: shareWith as 'anyone' | 'groups' | 'nobody', map_tile_url: mapTileUrl.trim(), map_attribution: mapAttribution.trim(), activity_retention_days: activityDays as number });
      await qc.invalidateQueries({ queryKey: ['admin', 'settings'] });
      notifications.show({ color: 'teal', message: t('admin.settings.saved') });
    } catch (err) {
      setServerError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack maw={640}>
      <Title order={1} fz={24}>
        {t('admin.nav.settings')}
      </Title>
      <Card withBorder>
        <Stack
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <TextInput label={t('admin.settings.siteName')} value={siteName} maxLength={64} error={errors.site_name} onChange={(e) => setSiteName(e.currentTarget.value)} />
          <Switch label={t('admin.settings.signup')} description={t('admin.settings.signupHelp')} checked={signup} onChange={(e) => setSignup(e.currentTarget.checked)} />
          <Select
            label={t('admin.settings.defaultGroup')}
            description={t('admin.settings.defaultGroupHelp')}
            data={groups.filter((g) => !g.is_admin).map((g) => ({ value: String(g.id), label: g.name }))}
            value={defaultGroup}
            allowDeselect={false}
            onChange={(v) => v && setDefaultGroup(v)}
          />
          <Select
            label={t('admin.settings.shareWith')}
            description={t('admin.settings.shareWithHelp')}
            data={(['anyone', 'groups', 'nobody'] as const).map((v) => ({ value: v, label: t(`admin.settings.shareWith_${v}`) }))}
            value={shareWith}
            allowDeselect={false}
            onChange={(v) => v && setShareWith(v)}
          />
          <DurationInput label={t('admin.settings.accessTtl')} description={t('admin.settings.accessRange')} value={accessTtl} onChange={setAccessTtl} units={['minutes', 'hours']} error={errors.access} />
          <DurationInput label={t('admin.settings.refreshTtl')} description={t('admin.settings.refreshRange')} value={refreshTtl} onChange={setRefreshTtl} units={['hours', 'days']} error={errors.refresh} />
          <NumberInput
            label={t('admin.settings.activityRetention')}
            description={t('admin.settings.activityRetentionHelp')}
            min={RETENTION_DAYS.min}
            max={RETENTION_DAYS.max}
            allowDecimal={false}
            allowNegative={false}
            value={activityDays}
            error={errors.activity}
            onChange={setActivityDays}
            w={260}
          />
          <TextInput
            label={t('admin.settings.mapTileUrl')}
            description={t('admin.settings.mapTileUrlHelp')}
            placeholder="https://tile.example.org/{z}/{x}/{y}.png"
            value={mapTileUrl}
            maxLength={500}
            error={errors.map}
            onChange={(e) => setMapTileUrl(e.currentTarget.value)}
          />
          <TextInput
            label={t('admin.settings.mapAttribution')}
            description={t('admin.settings.mapAttributionHelp')}
            placeholder="© OpenStreetMap contributors"
            value={mapAttribution}
            maxLength={300}
            onChange={(e) => setMapAttribution(e.currentTarget.value)}
          />
          {serverError && (
            <Alert color="red" role="alert">
              {serverError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              {t('admin.common.save')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <SignInProviders initial={initial} groups={groups} />
      <MailSettings initial={initial} />
    </Stack>
  );
}
