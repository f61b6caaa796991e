// The shapes of the providers' admin API (api-contract §15): one per type for
// creation, one with every field optional for a change, and the views that
// say whether a secret is stored but never hold it.
import { Type, type TSchema } from 'typebox';
import { Body, DateTime, Nullable, View } from '../http/contract.js';
import { GroupId, NO_CONTROL } from '../http/schemas.js';

const Text = (max: number, extra: Record<string, unknown> = {}) => Type.String({ maxLength: max, pattern: NO_CONTROL, ...extra });
const Name = Text(64, { minLength: 1 });
const Icon = Nullable('string', { maxLength: 2048, pattern: NO_CONTROL, description: 'an icon URL or an icon-set name' });
// A map by design (its keys are the provider's values); closed to keys that are not 1-512 characters.
const GroupMap = Type.Unsafe<Record<string, number>>({
  type: 'object',
  patternProperties: { '^[\\s\\S]{1,512}$': GroupId },
  additionalProperties: false,
  maxProperties: 200,
  description: '{<claim value or group DN/cn>: <group id>}; the first entry the person holds decides',
});
const Values = Type.Array(Text(512, { minLength: 1 }), { maxItems: 100, description: 'values that make the person an administrator' });
const Domain = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.-]+$' });

const oidcFields = {
  name: Name,
  icon: Type.Optional(Icon),
  enabled: Type.Optional(Type.Boolean()),
  issuer: Type.String({ minLength: 8, maxLength: 2048, pattern: NO_CONTROL, description: 'https:// (http:// only on a loopback address); discovery finds the endpoints' }),
  client_id: Text(256, { minLength: 1 }),
  client_secret: Type.Optional(Text(1024, { description: 'write-only; never returned' })),
  scopes: Type.Optional(Type.String({ minLength: 6, maxLength: 512, pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+( [\\x21\\x23-\\x5B\\x5D-\\x7E]+)*$', description: 'default "openid email profile"' })),
  groups_claim: Type.Optional(Nullable('string', { maxLength: 128, pattern: NO_CONTROL })),
  group_map: Type.Optional(GroupMap),
  admin_values: Type.Optional(Values),
  create_accounts: Type.Optional(Type.Boolean()),
  link_by_verified_email: Type.Optional(Type.Boolean()),
  allowed_domains: Type.Optional(Type.Array(Domain, { maxItems: 100 })),
};

const ldapFields = {
  name: Name,
  icon: Type.Optional(Icon),
  enabled: Type.Optional(Type.Boolean()),
  url: Type.String({ minLength: 8, maxLength: 512, pattern: '^ldaps?://', description: 'ldap://host[:port] or ldaps://host[:port]' }),
  start_tls: Type.Optional(Type.Boolean()),
  bind_dn: Type.Optional(Text(1024)),
  bind_password: Type.Optional(Text(1024, { description: 'write-only; never returned' })),
  user_base: Text(1024, { minLength: 1 }),
  user_filter: Type.Optional(Text(1024, { minLength: 3, description: 'an LDAP filter with {login}, e.g. (&(objectClass=inetOrgPerson)(uid={login}))' })),
  email_attribute: Type.Optional(Text(64, { minLength: 1 })),
  name_attribute: Type.Optional(Text(64, { minLength: 1 })),
  group_base: Type.Optional(Nullable('string', { maxLength: 1024, pattern: NO_CONTROL })),
  group_filter: Type.Optional(Nullable('string', { maxLength: 1024, pattern: NO_CONTROL, description: 'an LDAP filter with {dn}, e.g. (member={dn})' })),
  group_map: Type.Optional(GroupMap),
  admin_values: Type.Optional(Values),
  create_accounts: Type.Optional(Type.Boolean()),
};

export const CreateProvider = Type.Union(
  [Body({ type: Type.Literal('oidc'), ...oidcFields }, { description: 'OpenID Connect' }), Body({ type: Type.Literal('ldap'), ...ldapFields }, { description: 'LDAP' })],
  { description: 'An OpenID Connect or LDAP provider' },
);

const allOptional = <P extends Record<string, TSchema>>(props: P) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as unknown as P;

export const ChangeProvider = Body(allOptional({ ...oidcFields, ...ldapFields }), {
  description: "The fields to change (those of the provider's type); an absent secret keeps the stored one",
});

const viewCommon = {
  id: Type.String(),
  name: Type.String(),
  icon: Nullable('string'),
  enabled: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
  group_map: Type.Record(Type.String(), Type.Integer()),
  admin_values: Type.Array(Type.String()),
  create_accounts: Type.Boolean(),
};

export const ProviderView = Type.Union(
  [
    View(
      {
        type: Type.Literal('oidc'),
        ...viewCommon,
        issuer: Type.String(),
        client_id: Type.String(),
        client_secret_set: Type.Boolean({ description: 'whether a client secret is stored (the secret is write-only)' }),
        scopes: Type.String(),
        groups_claim: Nullable('string'),
        link_by_verified_email: Type.Boolean(),
        allowed_domains: Type.Array(Type.String()),
      },
      { title: 'OidcProvider' },
    ),
    View(
      {
        type: Type.Literal('ldap'),
        ...viewCommon,
        url: Type.String(),
        start_tls: Type.Boolean(),
        bind_dn: Type.String(),
        bind_password_set: Type.Boolean({ description: 'whether a bind password is stored (write-only)' }),
        user_base: Type.String(),
        user_filter: Type.String(),
        email_attribute: Type.String(),
        name_attribute: Type.String(),
        group_base: Nullable('string'),
        group_filter: Nullable('string'),
      },
      { title: 'LdapProvider' },
    ),
  ],
  { title: 'IdentityProvider' },
);

export const TestResult = View(
  {
    ok: Type.Boolean(),
    steps: Type.Array(View({ step: Type.String(), ok: Type.Boolean(), detail: Type.String({ description: 'what worked, or the server\'s own error' }) }, { title: 'ProviderTestStep' })),
  },
  { title: 'ProviderTestResult' },
);

export const IdentityView = View(
  {
    id: Type.String(),
    provider_id: Type.String(),
    provider_name: Type.String(),
    provider_type: Type.String({ description: "'oidc' or 'ldap'" }),
    login: Type.String(),
    created_at: DateTime,
    last_used_at: Nullable('string', { format: 'date-time' }),
  },
  { title: 'LinkedIdentity' },
);

export const ProviderIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) }, { additionalProperties: false });
