// The OAuth application form, with the fields of auth-interface §2.1 labelled
// in the reader's language; other languages keep the English names the
// interface uses (App Name, App Icon, Client ID, Client Secret, Redirect URIs)
// beside their own as hints (admin.apps.field.* in the locales), plus homepage, description, public client, enabled and the
// refresh-token lifetime. The server checks every rule; a refused redirect URI
// comes back with its index and the error is put on its line.
import { Alert, Button, Checkbox, Group, Radio, Stack, Text, TextInput, Textarea, PasswordInput, Avatar } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppAvatar, initials, isIconUrl } from '../../../components/AppAvatar';
import { ApiError, listErrorIndex, type OAuthApp, type OAuthAppFields } from '../api';
import { errorMessage, fieldText } from '../../../components/errorMessage';
import { fieldProblem } from '../../../api/fieldErrors';
import { CopyField } from './CopyField';
import { DurationInput } from './DurationInput';
import { ScopePicker } from './ScopePicker';
import { REFRESH_TTL } from '../pages/SettingsPage';

type GrantType = OAuthApp['grant_types'][number];
const DEVICE_CODE: GrantType = 'urn:ietf:params:oauth:grant-type:device_code';
/** api-contract §12: the grant types an app may be allowed, with their label keys. */
const GRANTS: readonly { value: GrantType; label: string }[] = [
  { value: 'authorization_code', label: 'admin.apps.grantAuthorizationCode' },
  { value: 'refresh_token', label: 'admin.apps.grantRefreshToken' },
  { value: DEVICE_CODE, label: 'admin.apps.grantDeviceCode' },
];


export function OAuthAppForm({ app, onSubmit, submitLabel }: { app?: OAuthApp; onSubmit: (fields: OAuthAppFields) => Promise<void>; submitLabel: string }) {
  const { t } = useTranslation();
  const [name, setName] = useState(app?.name ?? '');
  const [icon, setIcon] = useState(app?.icon ?? '');
  const [secretMode, setSecretMode] = useState<'generate' | 'supply'>('generate');
  const [secret, setSecret] = useState('');
  const [redirects, setRedirects] = useState((app?.redirect_uris ?? []).join('\n'));
  const [scopes, setScopes] = useState<string[]>(app?.scopes ?? []);
  const [homepage, setHomepage] = useState(app?.homepage_url ?? '');
  const [description, setDescription] = useState(app?.description ?? '');
  const [isPublic, setIsPublic] = useState(app?.is_public ?? false);
  const [enabled, setEnabled] = useState(app?.is_enabled ?? true);
  const [refreshTtl, setRefreshTtl] = useState<number | null>(app?.refresh_token_ttl ?? null);
  const [grantTypes, setGrantTypes] = useState<GrantType[]>(app?.grant_types ?? ['authorization_code', 'refresh_token']);
  const [logoutUris, setLogoutUris] = useState((app?.post_logout_redirect_uris ?? []).join('\n'));
  const [requirePar, setRequirePar] = useState(app?.require_par ?? false);
  const [requireDpop, setRequireDpop] = useState(app?.require_dpop ?? false);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLDivElement>(null);
  // After a refused submit, the first error is brought into view (and its field focused).
  useEffect(() => {
    if (!Object.values(errors).some(Boolean) || !form.current) return;
    const first = form.current.querySelector<HTMLElement>('[aria-invalid="true"], .mantine-InputWrapper-error, [role="alert"]');
    if (!first) return;
    first.scrollIntoView({ block: 'center', behavior: 'auto' });
    if (first.matches('[aria-invalid="true"]')) first.focus({ preventScroll: true });
  }, [errors]);

  const lines = redirects.split('\n').map((l) => l.trim());
  const uris = lines.filter(Boolean);
  // Only the authorization code grant sends the browser back to a redirect URI;
  // an app limited to the device grant (RFC 8628) needs none (the server's rule too).
  const needsRedirect = grantTypes.includes('authorization_code');

  const submit = async () => {
    const e: Record<string, string | null> = {};
    if (!name.trim()) e.name = t('admin.apps.required');
    if (!icon.trim()) e.icon = t('admin.apps.required');
    if (needsRedirect && uris.length === 0) e.redirects = t('admin.apps.redirectRequired');
    if (scopes.length === 0) e.scopes = t('admin.apps.scopesRequired');
    if (grantTypes.length === 0) e.grants = t('admin.apps.grantTypesRequired');
    if (!app && !isPublic && secretMode === 'supply' && secret.length < 16) e.secret = t('admin.apps.secretRule');
    if (refreshTtl !== null && (refreshTtl < REFRESH_TTL.min || refreshTtl > REFRESH_TTL.max)) e.refresh = t('admin.settings.refreshRange');
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    setBusy(true);
    try {
      await onSubmit({
        name: name.trim(),
        icon: icon.trim(),
        redirect_uris: uris,
        scopes,
        homepage_url: homepage.trim() || null,
        description: description.trim(),
        is_public: isPublic,
        is_enabled: enabled,
        refresh_token_ttl: refreshTtl,
        grant_types: GRANTS.map((g) => g.value).filter((g) => grantTypes.includes(g)),
        require_par: requirePar,
        require_dpop: requireDpop,
        post_logout_redirect_uris: logoutUris.split('\n').map((l) => l.trim()).filter(Boolean),
        ...(!app && !isPublic && secretMode === 'supply' ? { secret } : {}),
      });
    } catch (err) {
      const line = listErrorIndex(err, 'redirect_uris');
      const field = fieldProblem(err)?.field;
      // Beside its field, in the reader's language (components/errorMessage.ts).
      const text = fieldText(err, t);
      if (line !== null) {
        // Index among the non-empty lines -> the line number in the textarea.
        let seen = -1;
        const lineNumber = lines.findIndex((l) => l && ++seen === line) + 1;
        setErrors({ redirects: t('admin.apps.lineError', { line: lineNumber, message: text }) });
      } else if (field === 'icon') setErrors({ icon: text });
      else if (field === 'name') setErrors({ name: text });
      else if (field === 'secret') setErrors({ secret: text });
      else if (field === 'scopes') setErrors({ scopes: text });
      else if (field === 'post_logout_redirect_uris') setErrors({ logoutUris: text });
      else if (field === 'grant_types') setErrors({ grants: text });
      else if (field === 'homepage_url') setErrors({ homepage: text });
      else setErrors({ form: err instanceof ApiError ? errorMessage(err, t) : String(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack
      component="form"
      ref={form}
      {...{ noValidate: true }}
      onSubmit={(ev) => {
        ev.preventDefault();
        void submit();
      }}
    >
      <TextInput label={t('admin.apps.field.name')} description={t('admin.apps.nameHelp')} required value={name} maxLength={128} error={errors.name} onChange={(e) => setName(e.currentTarget.value)} />
      <Group align="flex-start" wrap="nowrap">
        <TextInput
          label={t('admin.apps.field.icon')}
          description={t('admin.apps.iconHelp')}
          required
          value={icon}
          error={errors.icon}
          onChange={(e) => setIcon(e.currentTarget.value)}
          style={{ flex: 1 }}
          placeholder="cloud-upload"
        />
        <Stack gap={4} align="center" pt={4}>
          <Text size="xs" c="var(--cirrus-muted)" id="icon-preview-label">
            {t('admin.apps.preview')}
          </Text>
          <div aria-labelledby="icon-preview-label" data-testid="icon-preview">
            {icon.trim() ? (
              isIconUrl(icon.trim()) || /^[a-z0-9-]+$/.test(icon.trim()) ? (
                <AppAvatar key={icon.trim()} name={name || '?'} icon={icon.trim()} size={48} />
              ) : (
                <Avatar size={48} radius="md">
                  {initials(name || '?')}
                </Avatar>
              )
            ) : (
              <Avatar size={48} radius="md" />
            )}
          </div>
        </Stack>
      </Group>
      {app ? (
        <CopyField label={t('admin.apps.field.clientId')} value={app.id} description={t('admin.apps.clientIdHelp')} />
      ) : (
        <TextInput label={t('admin.apps.field.clientId')} value="" placeholder={t('admin.apps.clientIdAssigned')} disabled description={t('admin.apps.clientIdHelp')} />
      )}
      <Checkbox label={t('admin.apps.public')} description={t('admin.apps.publicHelp')} checked={isPublic} onChange={(e) => setIsPublic(e.currentTarget.checked)} />
      {!app && !isPublic && (
        <Radio.Group label={t('admin.apps.field.clientSecret')} description={t('admin.apps.secretHelp')} value={secretMode} onChange={(v) => setSecretMode(v as 'generate' | 'supply')}>
          <Stack gap={6} mt={6}>
            <Radio value="generate" label={t('admin.apps.secretGenerate')} />
            <Radio value="supply" label={t('admin.apps.secretSupply')} />
          </Stack>
        </Radio.Group>
      )}
      {!app && !isPublic && secretMode === 'supply' && (
        <PasswordInput label={t('admin.apps.field.clientSecret')} description={t('admin.apps.secretRule')} value={secret} error={errors.secret} onChange={(e) => setSecret(e.currentTarget.value)} autoComplete="new-password" />
      )}
      <Textarea
        label={t('admin.apps.field.redirects')}
        description={needsRedirect ? t('admin.apps.redirectHelp') : t('admin.apps.redirectOptional')}
        required={needsRedirect}
        autosize
        minRows={3}
        value={redirects}
        error={errors.redirects}
        onChange={(e) => setRedirects(e.currentTarget.value)}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        spellCheck={false}
      />
      <ScopePicker value={scopes} onChange={setScopes} error={errors.scopes} />
      <Checkbox.Group label={t('admin.apps.grantTypes')} description={t('admin.apps.grantTypesHelp')} value={grantTypes} onChange={(v) => setGrantTypes(v as GrantType[])} error={errors.grants}>
        <Stack gap={6} mt={6}>
          {GRANTS.map((g) => (
            <Checkbox key={g.value} value={g.value} label={t(g.label)} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Textarea
        label={t('admin.apps.logoutUris')}
        description={t('admin.apps.logoutUrisHelp')}
        autosize
        minRows={2}
        value={logoutUris}
        error={errors.logoutUris}
        onChange={(e) => setLogoutUris(e.currentTarget.value)}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        spellCheck={false}
      />
      <Checkbox label={t('admin.apps.requirePar')} description={t('admin.apps.requireParHelp')} checked={requirePar} onChange={(e) => setRequirePar(e.currentTarget.checked)} />
      <Checkbox label={t('admin.apps.requireDpop')} description={t('admin.apps.requireDpopHelp')} checked={requireDpop} onChange={(e) => setRequireDpop(e.currentTarget.checked)} />
      <TextInput label={t('admin.apps.homepage')} value={homepage} error={errors.homepage} onChange={(e) => setHomepage(e.currentTarget.value)} placeholder="https://" />
      <Textarea label={t('admin.apps.description')} value={description} maxLength={2000} autosize minRows={2} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Checkbox label={t('admin.apps.enabled')} description={t('admin.apps.enabledHelp')} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
      <DurationInput
        label={t('admin.apps.refreshTtl')}
        description={t('admin.apps.refreshTtlHelp')}
        placeholder={t('admin.apps.siteDefault')}
        value={refreshTtl}
        onChange={setRefreshTtl}
        units={['hours', 'days']}
        error={errors.refresh}
      />
      {errors.form && (
        <Alert color="red" role="alert">
          {errors.form}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}

/** The one moment a secret is shown: after creation or regeneration. */
export function SecretOnce({ secret }: { secret: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t('admin.apps.secretOnceTitle')}>
      <Stack gap="xs">
        <Text size="sm">{t('admin.apps.secretOnce')}</Text>
        <CopyField label={t('admin.apps.field.clientSecret')} value={secret} />
      </Stack>
    </Alert>
  );
}

