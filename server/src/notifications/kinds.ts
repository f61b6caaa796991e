// The kinds of notification (api-contract §17), what each defaults to, and
// the preference objects: per kind `{web, email}`. A person stores only what
// they changed; the defaults fill the rest, so a kind added later gets its
// default for everyone.
import { Type, type Static } from 'typebox';
import { StringEnum, View } from '../core/schema.js';

export const KINDS = ['shared_with_me', 'upload_request_received', 'link_downloaded', 'quota_almost_full', 'new_device_sign_in', 'app_authorized', 'security_change'] as const;
export type Kind = (typeof KINDS)[number];

export const EMAIL_MODES = ['off', 'instant', 'daily'] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

export interface Preference {
  web: boolean;
  email: EmailMode;
}
export type Preferences = Record<Kind, Preference>;

/**
 * What a person gets before changing anything: every kind in the app; by
 * mail at once what used to be mailed (shares, upload requests) and what
 * someone should hear about even when not looking (a new sign-in, an app, a
 * full disk). Downloads are opt-in per link already, so their mail is too.
 */
export const DEFAULTS: Preferences = {
  shared_with_me: { web: true, email: 'instant' },
  upload_request_received: { web: true, email: 'instant' },
  link_downloaded: { web: true, email: 'off' },
  quota_almost_full: { web: true, email: 'instant' },
  new_device_sign_in: { web: true, email: 'instant' },
  app_authorized: { web: true, email: 'instant' },
  // The §11 notices (password, reset, passkey, two-step) are always mailed: a
  // security notice the intruder could switch off would not be one. "daily"
  // adds the change to the digest as well; "off" leaves the notice alone.
  security_change: { web: true, email: 'instant' },
};

export const PreferenceSchema = View(
  {
    web: Type.Boolean({ description: 'shown in the app (the bell)' }),
    email: StringEnum(EMAIL_MODES, { description: 'off, one mail per notification (instant), or in the daily digest (daily)' }),
  },
  { title: 'NotificationPreference' },
);

const each = <T>(schema: T) => Object.fromEntries(KINDS.map((k) => [k, schema])) as Record<Kind, T>;

export const PreferencesSchema = View(each(PreferenceSchema), { title: 'NotificationPreferences' });

/** A change: any kinds, each with either field. */
export const PreferencesPatchSchema = Type.Object(
  each(
    Type.Optional(
      Type.Object({ web: Type.Optional(Type.Boolean()), email: Type.Optional(StringEnum(EMAIL_MODES)) }, { additionalProperties: false, minProperties: 1 }),
    ),
  ),
  { additionalProperties: false, minProperties: 1 },
);
export type PreferencesPatch = Static<typeof PreferencesPatchSchema>;

/** The stored changes over the defaults (unknown kinds and bad values are dropped: the defaults win). */
export function resolve(stored: string | null | undefined): Preferences {
  const out = structuredClone(DEFAULTS);
  if (!stored) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return out;
  }
  if (!parsed || typeof parsed !== 'object') return out;
  for (const k of KINDS) {
    const p = (parsed as Record<string, Partial<Preference> | undefined>)[k];
    if (!p || typeof p !== 'object') continue;
    if (typeof p.web === 'boolean') out[k].web = p.web;
    if (typeof p.email === 'string' && (EMAIL_MODES as readonly string[]).includes(p.email)) out[k].email = p.email;
  }
  return out;
}
