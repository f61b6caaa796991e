// The add/edit dialog of a sign-in provider (docs/features/identity.md): an
// OpenID Connect provider (issuer, client id and secret; the endpoints come
// from discovery) or an LDAP directory (URL, service bind, bases and
// filters), with the account and group rules both share. Secrets are
// write-only: the field stays empty and an empty field keeps the stored one.
import { ActionIcon, Button, Group as Row, Modal, PasswordInput, SegmentedControl, Select, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi, type Group, type IdentityProvider, type NewProvider, type ProviderChange } from '../api';
import { FormActions } from './FormActions';

type Kind = 'oidc' | 'ldap';
interface MapRow {
  value: string;
  group: string | null;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
/** Optional text: absent when empty (the server's default applies). */
const optional = (text: string) => (text.trim() ? text.trim() : undefined);
const orNull = (text: string) => (text.trim() ? text.trim() : null);

export function ProviderForm({ provider, groups, onClose, onSaved }: { provider: IdentityProvider | null; groups: Group[]; onClose: () => void; onSaved: (saved: IdentityProvider) => void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 36em)');
  const oidc = provider?.type === 'oidc' ? provider : null;
  const ldap = provider?.type === 'ldap' ? provider : null;
  const [kind, setKind] = useState<Kind>(provider?.type ?? 'oidc');
  const [name, setName] = useState(provider?.name ?? '');
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const [createAccounts, setCreateAccounts] = useState(provider?.create_accounts ?? false);
  const [adminValues, setAdminValues] = useState((provider?.admin_values ?? []).join('\n'));
  const [groupMap, setGroupMap] = useState<MapRow[]>(Object.entries(provider?.group_map ?? {}).map(([value, group]) => ({ value, group: String(group) })));
  // OpenID Connect
  const [issuer, setIssuer] = useState(oidc?.issuer ?? '');
  const [clientId, setClientId] = useState(oidc?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [scopes, setScopes] = useState(oidc?.scopes ?? 'openid email profile');
  const [groupsClaim, setGroupsClaim] = useState(oidc?.groups_claim ?? '');
  const [linkVerified, setLinkVerified] = useState(oidc?.link_by_verified_email ?? false);
  const [domains, setDomains] = useState((oidc?.allowed_domains ?? []).join('\n'));
  // LDAP
  const [url, setUrl] = useState(ldap?.url ?? '');
  const [startTls, setStartTls] = useState(ldap?.start_tls ?? false);
  const [bindDn, setBindDn] = useState(ldap?.bind_dn ?? '');
  const [bindPassword, setBindPassword] = useState('');
  const [userBase, setUserBase] = useState(ldap?.user_base ?? '');
  const [userFilter, setUserFilter] = useState(ldap?.user_filter ?? '(&(objectClass=inetOrgPerson)(|(uid={login})(mail={login})))');
  const [emailAttr, setEmailAttr] = useState(ldap?.email_attribute ?? 'mail');
  const [nameAttr, setNameAttr] = useState(ldap?.name_attribute ?? 'cn');
  const [groupBase, setGroupBase] = useState(ldap?.group_base ?? '');
  const [groupFilter, setGroupFilter] = useState(ldap?.group_filter ?? '');

  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const validate = () => {
    const required = t('admin.providers.required');
    const e: Record<string, string | undefined> = {};
    if (!name.trim()) e.name = required;
    if (kind === 'oidc') {
      if (!/^https?:\/\/\S+$/.test(issuer.trim())) e.issuer = t('admin.providers.issuerInvalid');
      if (!clientId.trim()) e.client_id = required;
    } else {
      if (!/^ldaps?:\/\/\S+$/.test(url.trim())) e.url = t('admin.providers.urlInvalid');
      if (!userBase.trim()) e.user_base = required;
    }
    groupMap.forEach((row, i) => {
      if (!row.value.trim() || !row.group) e[`map${i}`] = t('admin.providers.mapIncomplete');
    });
    setErrors(e);
    return Object.values(e).every((v) => !v);
  };

  const fields = () => {
    const common = {
      name: name.trim(),
      enabled,
      create_accounts: createAccounts,
      admin_values: lines(adminValues),
      group_map: Object.fromEntries(groupMap.map((r) => [r.value.trim(), Number(r.group)])),
    };
    if (kind === 'oidc') {
      return {
        ...common,
        issuer: issuer.trim(),
        client_id: clientId.trim(),
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        scopes: optional(scopes),
        groups_claim: orNull(groupsClaim),
        link_by_verified_email: linkVerified,
        allowed_domains: lines(domains),
      };
    }
    return {
      ...common,
      url: url.trim(),
      start_tls: startTls,
      bind_dn: bindDn.trim(),
      ...(bindPassword ? { bind_password: bindPassword } : {}),
      user_base: userBase.trim(),
      user_filter: optional(userFilter),
      email_attribute: optional(emailAttr),
      name_attribute: optional(nameAttr),
      group_base: orNull(groupBase),
      group_filter: orNull(groupFilter),
    };
  };

  const save = async () => {
    setServerError(null);
    if (!validate()) return;
    setBusy(true);
    try {
      const saved = provider ? await adminApi.updateProvider(provider.id, fields() as ProviderChange) : await adminApi.createProvider({ type: kind, ...fields() } as NewProvider);
      onSaved(saved);
    } catch (err) {
      setServerError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  const secretHelp = (stored: boolean | undefined) => (stored ? t('admin.providers.secretStored') : t('admin.providers.secretNone'));
  const groupOptions = groups.map((g) => ({ value: String(g.id), label: g.name }));

  return (
    <Modal opened onClose={onClose} title={provider ? t('admin.providers.editNamed', { name: provider.name }) : t('admin.providers.add')} size="lg" fullScreen={phone} centered>
      <Stack
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {!provider && (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="provider-kind">
              {t('admin.providers.kind')}
            </Text>
            <SegmentedControl
              aria-labelledby="provider-kind"
              value={kind}
              onChange={(v) => setKind(v as Kind)}
              data={[
                { value: 'oidc', label: t('admin.providers.oidc') },
                { value: 'ldap', label: t('admin.providers.ldap') },
              ]}
            />
          </Stack>
        )}
        <TextInput label={t('admin.providers.name')} description={t('admin.providers.nameHelp')} value={name} maxLength={64} error={errors.name} onChange={(e) => setName(e.currentTarget.value)} required withAsterisk={false} />
        {kind === 'oidc' ? (
          <>
            <TextInput label={t('admin.providers.issuer')} description={t('admin.providers.issuerHelp')} placeholder="https://sso.example.org/realms/staff" value={issuer} error={errors.issuer} onChange={(e) => setIssuer(e.currentTarget.value)} required withAsterisk={false} />
            <TextInput label={t('admin.providers.clientId')} value={clientId} error={errors.client_id} onChange={(e) => setClientId(e.currentTarget.value)} autoComplete="off" required withAsterisk={false} />
            <PasswordInput label={t('admin.providers.clientSecret')} description={secretHelp(oidc?.client_secret_set)} value={clientSecret} onChange={(e) => setClientSecret(e.currentTarget.value)} autoComplete="new-password" />
            <TextInput label={t('admin.providers.scopes')} value={scopes} onChange={(e) => setScopes(e.currentTarget.value)} />
            <TextInput label={t('admin.providers.groupsClaim')} description={t('admin.providers.groupsClaimHelp')} placeholder="groups" value={groupsClaim} onChange={(e) => setGroupsClaim(e.currentTarget.value)} />
          </>
        ) : (
          <>
            <TextInput label={t('admin.providers.url')} description={t('admin.providers.urlHelp')} placeholder="ldaps://ldap.example.org" value={url} error={errors.url} onChange={(e) => setUrl(e.currentTarget.value)} required withAsterisk={false} />
            <Switch label={t('admin.providers.startTls')} checked={startTls} onChange={(e) => setStartTls(e.currentTarget.checked)} />
            <TextInput label={t('admin.providers.bindDn')} description={t('admin.providers.bindDnHelp')} placeholder="cn=cirrus,ou=services,dc=example,dc=org" value={bindDn} onChange={(e) => setBindDn(e.currentTarget.value)} autoComplete="off" />
            <PasswordInput label={t('admin.providers.bindPassword')} description={secretHelp(ldap?.bind_password_set)} value={bindPassword} onChange={(e) => setBindPassword(e.currentTarget.value)} autoComplete="new-password" />
            <TextInput label={t('admin.providers.userBase')} placeholder="ou=people,dc=example,dc=org" value={userBase} error={errors.user_base} onChange={(e) => setUserBase(e.currentTarget.value)} required withAsterisk={false} />
            <TextInput label={t('admin.providers.userFilter')} description={t('admin.providers.userFilterHelp')} value={userFilter} onChange={(e) => setUserFilter(e.currentTarget.value)} />
            <Row grow align="flex-start">
              <TextInput label={t('admin.providers.emailAttribute')} value={emailAttr} onChange={(e) => setEmailAttr(e.currentTarget.value)} />
              <TextInput label={t('admin.providers.nameAttribute')} value={nameAttr} onChange={(e) => setNameAttr(e.currentTarget.value)} />
            </Row>
            <TextInput label={t('admin.providers.groupBase')} placeholder="ou=groups,dc=example,dc=org" value={groupBase} onChange={(e) => setGroupBase(e.currentTarget.value)} />
            <TextInput label={t('admin.providers.groupFilter')} description={t('admin.providers.groupFilterHelp')} placeholder="(&(objectClass=groupOfNames)(member={dn}))" value={groupFilter} onChange={(e) => setGroupFilter(e.currentTarget.value)} />
          </>
        )}
        <Switch label={t('admin.providers.createAccounts')} description={t('admin.providers.createAccountsHelp')} checked={createAccounts} onChange={(e) => setCreateAccounts(e.currentTarget.checked)} />
        {kind === 'oidc' && (
          <>
            <Textarea label={t('admin.providers.domains')} description={t('admin.providers.domainsHelp')} placeholder="example.org" autosize minRows={2} value={domains} onChange={(e) => setDomains(e.currentTarget.value)} />
            <Switch label={t('admin.providers.linkVerified')} description={t('admin.providers.linkVerifiedHelp')} checked={linkVerified} onChange={(e) => setLinkVerified(e.currentTarget.checked)} />
          </>
        )}
        <Textarea label={t('admin.providers.adminValues')} description={t('admin.providers.adminValuesHelp')} autosize minRows={2} value={adminValues} onChange={(e) => setAdminValues(e.currentTarget.value)} />
        <Stack gap={6} role="group" aria-labelledby="provider-map">
          <Text size="sm" fw={500} id="provider-map">
            {t('admin.providers.groupMap')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('admin.providers.groupMapHelp')}
          </Text>
          {groupMap.map((row, i) => (
            <Row key={i} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                aria-label={t('admin.providers.mapValue', { n: i + 1 })}
                placeholder={t('admin.providers.mapValuePlaceholder')}
                value={row.value}
                error={errors[`map${i}`]}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setGroupMap((rows) => rows.map((r, j) => (j === i ? { ...r, value } : r)));
                }}
                style={{ flex: 1 }}
              />
              <Select
                aria-label={t('admin.providers.mapGroup', { n: i + 1 })}
                placeholder={t('admin.providers.mapGroupPlaceholder')}
                data={groupOptions}
                value={row.group}
                onChange={(group) => setGroupMap((rows) => rows.map((r, j) => (j === i ? { ...r, group } : r)))}
                style={{ flex: 1 }}
              />
              <ActionIcon variant="subtle" color="red" size="lg" aria-label={t('admin.providers.mapRemove', { n: i + 1 })} onClick={() => setGroupMap((rows) => rows.filter((_, j) => j !== i))}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Row>
          ))}
          <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setGroupMap((rows) => [...rows, { value: '', group: null }])} style={{ alignSelf: 'flex-start' }}>
            {t('admin.providers.mapAdd')}
          </Button>
        </Stack>
        <Switch label={t('admin.providers.enabled')} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <FormActions error={serverError} busy={busy} submitLabel={provider ? t('admin.common.save') : t('admin.providers.addSubmit')} onCancel={onClose} />
      </Stack>
    </Modal>
  );
}
