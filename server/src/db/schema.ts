// Table types. Times are Unix milliseconds in BIGINT columns (numbers in JS);
// flags are 0/1 integers so both dialects read them the same way.
import type { Generated, Kysely, Selectable } from 'kysely';

export interface SettingsTable {
  name: string;
  value: string;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  is_admin: number;
  /** Bytes; 0 means no storage. */
  storage_quota: number;
  created_at: number;
  /** Versions kept per file; 0 = none (migration 020). */
  max_versions: Generated<number>;
  /** Days a version is kept after it was replaced (migration 020). */
  version_days: Generated<number>;
}

export interface UsersTable {
  id: string;
  email: string;
  nickname: string;
  password_hash: string;
  group_id: number;
  /** 'team': the principal owning a team folder's tree (migration 025); never signs in, never listed. */
  status: 'active' | 'banned' | 'inactive' | 'team';
  /** Per-user override of the group quota in bytes; null = use the group's. */
  storage_quota: number | null;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: number | null;
  /** Version (ms) of the avatar in user_avatars; null = none, initials shown. */
  avatar_at: number | null;
  created_at: number;
  updated_at: number;
  /** When the nickname was last changed; 0 = never since the account was made (migration 030). */
  nickname_at: Generated<number>;
  /** Access tokens dated at or before this (Unix ms) are refused; 0 for none (migration 011). */
  tokens_valid_after: number;
  /** 1 once the address was shown to reach the user (a link mailed to it was used; migration 018). */
  email_verified: number;
  /** The language mails are written in ('en', 'zh-CN'); null = English (migration 018). */
  locale: string | null;
}

export interface SessionsTable {
  /** The session family id (`sid` claim). */
  id: string;
  user_id: string;
  client_id: string | null;
  /** Space-separated granted scopes; null for first-party sessions. */
  scopes: string | null;
  current_jti: string;
  previous_jti: string | null;
  rotated_at: number | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  revoke_reason: string | null;
  /** Seconds each rotation extends the family by; null = the site setting. */
  refresh_ttl: number | null;
}

/** The browser and address a first-party session family signed in from (migration 010). */
export interface SessionClientsTable {
  session_id: string;
  user_agent: string | null;
  ip: string | null;
}

export interface RevocationEventsTable {
  id: Generated<number>;
  /** 'family' (key = sid), 'grant' (key = `${user_id} ${client_id}`), 'client' (key = client_id). */
  kind: string;
  key: string;
  revoked_at: number;
  /** After this moment no token it could affect is still valid; the row can be pruned. */
  expires_at: number;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_start: number;
  locked_until: number;
}

export interface SignInChallengesTable {
  id: string;
  user_id: string;
  expires_at: number;
  attempts: number;
}

export interface OAuthClientsTable {
  /** The client ID (a UUID). */
  id: string;
  name: string;
  icon: string;
  homepage_url: string | null;
  description: string;
  /** JSON array of registered redirect URIs. */
  redirect_uris: string;
  /** Space-separated scopes the app may request. */
  scopes: string;
  /** HMAC-SHA256 (hex) of the client secret; null for public clients. */
  secret_hash: string | null;
  is_public: number;
  is_enabled: number;
  /** Overrides the site's refresh-token lifetime (seconds); null = the site setting. */
  refresh_token_ttl: number | null;
  /** Space-separated grant types the app may use (migration 017). */
  grant_types: string;
  /** 1: authorization requests must be pushed first (RFC 9126 §5). */
  require_par: number;
  /** 1: every token request must carry a DPoP proof (RFC 9449; migration 024). */
  require_dpop: number;
  /** JSON array of exact post-logout redirect URIs. */
  post_logout_redirect_uris: string;
  created_at: number;
  updated_at: number;
}

export interface OAuthGrantsTable {
  user_id: string;
  client_id: string;
  /** Space-separated scopes the user has consented to. */
  scopes: string;
  created_at: number;
  updated_at: number;
}

/** A pushed authorization request (RFC 9126): parameters waiting for their request_uri. */
export interface OAuthParRequestsTable {
  request_uri_hash: string;
  client_id: string;
  /** JSON: {name: [values]}. */
  params: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A device authorization request (RFC 8628 §3.1), pending until the user decides and the device polls. */
export interface OAuthDeviceCodesTable {
  /** SHA-256 (hex) of the device code. */
  device_code_hash: string;
  /** SHA-256 (hex) of the normalised user code (8 letters). */
  user_code_hash: string;
  client_id: string;
  scopes: string;
  status: 'pending' | 'approved' | 'denied' | 'used';
  user_id: string | null;
  auth_time: number | null;
  interval_s: number;
  last_polled_at: number | null;
  created_at: number;
  expires_at: number;
}

export interface OAuthCodesTable {
  /** SHA-256 (hex) of the authorization code. */
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  nonce: string | null;
  /** When the user signed in (ms), for the id_token's auth_time. */
  auth_time: number | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  sid: string | null;
  reused_at: number | null;
  /** RFC 9449 §10: the thumbprint of the DPoP key the code is bound to (dpop_jkt), or null. */
  dpop_jkt: string | null;
}

/** A folder or file. Root folders and trashed items have no parent. */
export interface FilesTable {
  id: string;
  owner_id: string;
  parent_id: string | null;
  /** NFC, 1-255 bytes, unique per folder, also case-insensitively (name_fold). */
  name: string;
  /** files/name-rules.ts sortKey(name): the listing order (case-insensitive, natural); set at every write. */
  sort_key: string;
  /** files/name-rules.ts foldName(name): unique per parent. */
  name_fold: string;
  /** 0 = folder, 1 = file. */
  kind: number;
  size: number;
  blob_id: string | null;
  mime_type: string | null;
  created_at: number;
  updated_at: number;
  trashed_at: number | null;
  /** Where a trashed item came from, to restore it. */
  trashed_parent_id: string | null;
  trashed_path: string | null;
  /** 0; on a detached root: 1 = its subtree is being deleted in batches, 2 = a copy being built (migration 014). */
  pending: number;
  /** Who wrote the current content: 'web', 'api', 'webdav:<device>', 'app:<name>', 'restore' (migration 020); null = unknown. */
  content_source: string | null;
  /** The user whose write made the current content (migration 035); null = unknown or an upload link. */
  content_author: string | null;
  /** When the name was last set (create, rename, restore); 0 = at created_at (migration 030). */
  named_at: Generated<number>;
}

/** A previous content of a file (migration 020): holds one reference on its blob. */
export interface FileVersionsTable {
  id: string;
  owner_id: string;
  file_id: string;
  blob_id: string | null;
  size: number;
  mime_type: string | null;
  created_at: number;
  archived_at: number;
  source: string | null;
  /** The user who wrote this content (files.content_author when it was current; migration 035). */
  author: string | null;
}

/** Immutable bytes in the storage driver; shared by copies. */
export interface BlobsTable {
  id: string;
  size: number;
  crc32: number;
  ref_count: number;
  created_at: number;
}

/** An upload in progress (tus or a streamed PUT); holds its quota reservation. */
export interface UploadsTable {
  id: string;
  owner_id: string;
  /** 'spool': the chunks of a sync client's chunked upload, appended in place (sync/chunked.ts). */
  kind: 'tus' | 'put' | 'spool';
  target_path: string;
  /** The blob id its bytes will become, fixed at creation. */
  blob_id: string;
  /** null while unknown (a chunked PUT). */
  length: number | null;
  upload_offset: number;
  /** CRC-32 of the bytes [0, upload_offset). */
  crc32: number;
  reserved: number;
  /** The tus Upload-Metadata header as sent. */
  metadata: string | null;
  lock_token: string | null;
  lock_expires_at: number | null;
  /** The server process (server_instances.id) holding the write lock, or the PUT streaming into it. */
  lock_owner: string | null;
  created_at: number;
  expires_at: number;
  /** The upload-request share it came through (never overwrites; shares/upload-requests.ts). */
  share_id: string | null;
  /** Who sends it (files.content_source of the result; migration 020). */
  source: string | null;
  /** The user sending it (files.content_author of the result; migration 035). */
  author: string | null;
}

export interface StorageUsageTable {
  user_id: string;
  /** Bytes of the user's files, trash included. */
  used: number;
  /** Bytes held by uploads in progress. */
  reserved: number;
  /** 1: someone besides the owner follows this tree's changes (files/events FeedAudience); migration 026. */
  feed_audience: Generated<number>;
}

/** A user's change-feed head (migration 021): the last cursor handed out and the last one pruned. */
export interface FileEventHeadsTable {
  user_id: string;
  seq: number;
  pruned_seq: number;
}

/** One change to a user's tree (migration 021, files/events/). */
export interface FileEventsTable {
  user_id: string;
  seq: number;
  type: string;
  path: string;
  old_path: string | null;
  file_id: string;
  is_dir: number;
  size: number | null;
  at: number;
}

/** One change of an item, with who made it (migration 043, activity/). */
export interface ActivityEventsTable {
  seq: Generated<number>;
  owner_id: string;
  file_id: string;
  type: string;
  /** Owner path after the change (deleted: before). */
  path: string;
  old_path: string | null;
  is_dir: number;
  /** null: someone through a link. */
  actor_id: string | null;
  actor_name: string | null;
  at: number;
}

/** The extracted text of one blob (server/src/search; migration 033). On SQLite the text itself is in the FTS5 table search_text (rowid = doc_id). */
export interface MediaItemsTable {
  blob_id: string;
  /** pending | done | failed | skipped | off */
  state: string;
  reason: string | null;
  attempts: Generated<number>;
  lease_until: number | null;
  /** image | heif | video | audio | pdf */
  kind: string | null;
  has_thumb: Generated<number>;
  taken_at: number | null;
  /** taken_at, else when the content was first stored: the photo listing's order */
  sort_at: number;
  lat: number | null;
  lon: number | null;
  /** JSON of the file's `media` object */
  meta: string | null;
  updated_at: number;
}

export interface SearchDocsTable {
  doc_id: Generated<number>;
  blob_id: string;
  /** pending | indexed | failed | skipped */
  state: string;
  reason: string | null;
  attempts: Generated<number>;
  lease_until: number | null;
  source_bytes: Generated<number>;
  text_chars: Generated<number>;
  updated_at: number;
}

/** PostgreSQL only (migration 047): a doc's text, apart from its queue row (SQLite keeps it in the FTS5 table search_text). */
export interface SearchBodiesTable {
  doc_id: number;
  body: string;
  /** lower(body), what LIKE matches and pg_trgm indexes. */
  folded: string;
}

/** A share link (server/src/shares): a capability for one file or folder. */
export interface SharesTable {
  id: string;
  owner_id: string;
  file_id: string;
  /** argon2id; null when the share has no password. */
  password_hash: string | null;
  expires_at: number | null;
  download_limit: number | null;
  downloads: number;
  views: number;
  created_at: number;
  updated_at: number;
  /** 1: an upload request (receives files, never lists or serves its folder). */
  upload_only: Generated<number>;
  max_file_size: number | null;
  max_files: number | null;
  /** 1: each download tells the owner (a `link_downloaded` notification). */
  notify_downloads: Generated<number>;
  /** 1 (the default): pictures are sent without their location (EXIF GPS, XMP places); 0: as stored. */
  strip_location: Generated<number>;
}

/** A file sent through an upload-request link: in flight, then received. */
export interface ShareUploadsTable {
  id: string;
  share_id: string;
  name: string;
  size: number;
  uploader: string | null;
  file_id: string | null;
  created_at: number;
  completed_at: number | null;
  notified_at: number | null;
  /** The client address of an upload in flight (migration 036); null once the file has arrived. */
  address: string | null;
}

/** When a person was last mailed about a shared item, or about someone's group grants (migration 030). */
export interface ShareNoticesTable {
  user_id: string;
  /** A file id, or "group:<granting user id>". */
  subject: string;
  sent_at: number;
}

export interface DavAccountsTable {
  id: string;
  user_id: string;
  name: string;
  key_id: string;
  /** argon2id of the generated password. */
  password_hash: string;
  root_path: string;
  readonly: number;
  created_at: number;
  updated_at: number;
}

export interface DavPropertiesTable {
  file_id: string;
  /** Clark notation: {namespace}local-name. */
  name: string;
  value: string;
  /** The owner of the file (migration 013; null only on rows whose file was gone when it ran). */
  user_id: string | null;
  /** UTF-8 bytes of name and value, counted against the owner's cap. */
  bytes: number;
}

export interface DavLocksTable {
  token: string;
  user_id: string;
  path: string;
  /** 0, or -1 for infinity. */
  depth: number;
  exclusive: number;
  owner_xml: string | null;
  timeout_s: number;
  expires_at: number;
  created_at: number;
}

/** One running server process; a lock whose owner stopped beating is free (migration 007). */
export interface ServerInstancesTable {
  id: string;
  started_at: number;
  heartbeat_at: number;
}

/** A person's picture: a 256-pixel square WebP (server/src/accounts/avatars.ts). */
export interface UserAvatarsTable {
  user_id: string;
  image: Buffer;
  updated_at: number;
}

/** Every mail, written before it is sent (migration 018, mail/outbox.ts). */
export interface MailOutboxTable {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** One-use link tokens mailed to people, stored as SHA-256 (migration 018). */
export interface AccountTokensTable {
  token_hash: string;
  user_id: string;
  kind: 'reset' | 'activate' | 'verify' | 'email_change';
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Two-step recovery codes, stored as SHA-256 (migration 018). */
export interface RecoveryCodesTable {
  code_hash: string;
  user_id: string;
  created_at: number;
  used_at: number | null;
}

/** Passkeys (WebAuthn credentials) people registered (migration 019). */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url */
  credential_id: string;
  /** COSE public key, base64url */
  public_key: string;
  counter: number;
  /** JSON array, or null */
  transports: string | null;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** Pending WebAuthn ceremonies (migration 019): single use, five minutes. */
export interface PasskeyChallengesTable {
  id: string;
  kind: 'register' | 'authenticate';
  challenge: string;
  user_id: string | null;
  expires_at: number;
}

/** A grant of read or write on a file or folder to one user or one group (migration 022). */
export interface FileAccessTable {
  id: string;
  file_id: string;
  owner_id: string;
  user_id: string | null;
  group_id: number | null;
  permission: 'read' | 'write';
  reshare: number;
  created_by: string;
  created_at: number;
}

/** When a person last opened "Shared with me" (migration 022). */
export interface AccessSeenTable {
  user_id: string;
  seen_at: number;
}

/** A team folder (migration 025): the tree of the principal `owner_id`, mounted for the members of `group_id`. */
export interface TeamFoldersTable {
  id: string;
  owner_id: string;
  group_id: number;
  name: string;
  permission: 'read' | 'write';
  created_at: number;
  updated_at: number;
}

/** An admin's override of a team folder's permission for one member (migration 025). */
export interface TeamFolderMembersTable {
  team_id: string;
  user_id: string;
  permission: 'read' | 'write' | 'none';
}

export interface Database {
  settings: SettingsTable;
  groups: GroupsTable;
  users: UsersTable;
  sessions: SessionsTable;
  session_clients: SessionClientsTable;
  revocation_events: RevocationEventsTable;
  login_throttle: LoginThrottleTable;
  signin_challenges: SignInChallengesTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_device_codes: OAuthDeviceCodesTable;
  oauth_par_requests: OAuthParRequestsTable;
  files: FilesTable;
  blobs: BlobsTable;
  file_versions: FileVersionsTable;
  uploads: UploadsTable;
  server_instances: ServerInstancesTable;
  storage_usage: StorageUsageTable;
  file_event_heads: FileEventHeadsTable;
  file_events: FileEventsTable;
  activity_events: ActivityEventsTable;
  shares: SharesTable;
  share_uploads: ShareUploadsTable;
  dav_accounts: DavAccountsTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  user_avatars: UserAvatarsTable;
  mail_outbox: MailOutboxTable;
  account_tokens: AccountTokensTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  file_access: FileAccessTable;
  share_notices: ShareNoticesTable;
  access_seen: AccessSeenTable;
  team_folders: TeamFoldersTable;
  team_folder_members: TeamFolderMembersTable;
  search_docs: SearchDocsTable;
  search_bodies: SearchBodiesTable;
  media_items: MediaItemsTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  sync_tag_heads: SyncTagHeadsTable;
  sync_folder_tags: SyncFolderTagsTable;
  sync_checksums: SyncChecksumsTable;
  sync_transfers: SyncTransfersTable;
  sync_chunks: SyncChunksTable;
  sync_login_flows: SyncLoginFlowsTable;
  sync_devices: SyncDevicesTable;
  sync_file_numbers: SyncFileNumbersTable;
  sync_share_numbers: SyncShareNumbersTable;
  identity_providers: IdentityProvidersTable;
  user_identities: UserIdentitiesTable;
  sso_states: SsoStatesTable;
  sso_codes: SsoCodesTable;
  sso_sessions: SsoSessionsTable;
  audit_log: AuditLogTable;
  audit_head: AuditHeadTable;
}

/** One audit event (migration 037, audit/): append-only, chained by `hash`. */
export interface AuditLogTable {
  seq: number;
  at: number;
  actor_id: string | null;
  ip: string;
  user_agent: string;
  instance: string;
  action: string;
  target_type: string;
  target_id: string;
  /** JSON object. */
  detail: string;
  hash: string;
}

/** One notice to one person (notifications/). */
export interface NotificationsTable {
  id: string;
  user_id: string;
  /** The person's own sequence: the live stream's cursor. */
  seq: number;
  type: string;
  at: number;
  /** JSON object. */
  data: string;
  read_at: number | null;
  /** 1: shown in the app. */
  web: number;
  /** 1: waits for the daily digest. */
  digest: Generated<number>;
}

/** A person's notification preferences and the state of their digest and quota notice. */
export interface NotificationSettingsTable {
  user_id: string;
  /** JSON object: type -> {web, email}, only the kinds changed from the defaults. */
  prefs: string;
  digest_at: number | null;
  quota_warned: Generated<number>;
}

/** The audit chain's single head row (id 1): the last seq and hash, and where retention cut the log. */
export interface AuditHeadTable {
  id: number;
  seq: number;
  hash: string;
  pruned_seq: number;
  pruned_hash: string;
}

/** Upstream identity providers (migration 032, api-contract §15). */
export interface IdentityProvidersTable {
  id: string;
  type: 'oidc' | 'ldap';
  name: string;
  icon: string | null;
  /** JSON of the type's settings, without the secret. */
  config: string;
  /** The sealed client secret or bind password; '' for none. */
  secret: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  provider_id: string;
  /** OpenID Connect `sub`, or the LDAP entry's DN. */
  subject: string;
  login: string;
  created_at: number;
  last_used_at: number | null;
}

export interface SsoStatesTable {
  id: string;
  provider_id: string;
  browser: string;
  code_verifier: string;
  nonce: string;
  return_to: string;
  link_user_id: string | null;
  expires_at: number;
}

export interface SsoCodesTable {
  id: string;
  user_id: string;
  provider_id: string;
  subject: string;
  upstream_sid: string | null;
  id_token: string | null;
  expires_at: number;
}

export interface SsoSessionsTable {
  family_id: string;
  user_id: string;
  provider_id: string;
  subject: string;
  upstream_sid: string | null;
  id_token: string | null;
  created_at: number;
}

/** Migration 031 (server/src/sync): how far the change feed was folded into folder tags. */
export interface SyncTagHeadsTable {
  user_id: string;
  applied_seq: number;
  floor_seq: number;
}

export interface SyncFolderTagsTable {
  user_id: string;
  path: string;
  seq: number;
  stamp: number;
}

export interface SyncChecksumsTable {
  blob_id: string;
  checksum: string;
}

export interface SyncTransfersTable {
  id: string;
  user_id: string;
  name: string;
  total_length: number | null;
  destination: string | null;
  created_at: number;
  updated_at: number;
  /** The uploads row (kind 'spool') chunks are appended to, once one was written there. */
  spool_id: string | null;
}

export interface SyncChunksTable {
  transfer_id: string;
  name: string;
  size: number;
  /** The chunk's own object; for a chunk in the spool, only its identity (its ETag). */
  storage_key: string;
  created_at: number;
  /** Where the chunk starts in its transfer's spool; null when it is an object of its own. */
  spool_offset: number | null;
}

export interface SyncLoginFlowsTable {
  id: string;
  poll_hash: string;
  client_name: string;
  created_at: number;
  expires_at: number;
  user_id: string | null;
  login_name: string | null;
  sealed_password: string | null;
}

export interface SyncDevicesTable {
  account_id: string;
  user_agent: string;
  last_seen_at: number;
}

export interface SyncFileNumbersTable {
  number: Generated<number>;
  file_id: string;
}

export interface SyncShareNumbersTable {
  number: Generated<number>;
  share_id: string;
}

// Every column of the tables read by statements prepared by name on
// PostgreSQL (db/compiled.ts), which list their columns instead of `*`. A
// column missing here fails the type check of the statement that reads the row.
export const SESSION_COLUMNS = [
  'id',
  'user_id',
  'client_id',
  'scopes',
  'current_jti',
  'previous_jti',
  'rotated_at',
  'created_at',
  'expires_at',
  'revoked_at',
  'revoke_reason',
  'refresh_ttl',
] as const satisfies readonly (keyof SessionsTable)[];
export const OAUTH_GRANT_COLUMNS = ['user_id', 'client_id', 'scopes', 'created_at', 'updated_at'] as const satisfies readonly (keyof OAuthGrantsTable)[];
export const OAUTH_CODE_COLUMNS = [
  'code_hash',
  'client_id',
  'user_id',
  'redirect_uri',
  'scopes',
  'code_challenge',
  'nonce',
  'auth_time',
  'created_at',
  'expires_at',
  'used_at',
  'sid',
  'reused_at',
  'dpop_jkt',
] as const satisfies readonly (keyof OAuthCodesTable)[];

/** A user row joined with its group (accounts' reads; the auth guard's cached user). */
export type UserRow = Selectable<UsersTable>;
export type UserWithGroup = UserRow & { group_name: string; group_is_admin: number; group_quota: number };

/** A file or folder as read (files/rows.ts names it for the features that share it). */
export type FileRow = Selectable<FilesTable>;

// The row the auth guard carries (core/identity.ts AuthUser.row) is this one;
// core/ declares the interface empty so that it imports nothing from db/.
declare module '../core/identity.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuthUserRow extends UserWithGroup {}
}

/** A connection or a transaction, as ports that run inside a caller's transaction take it (files/events/audience.ts). */
export type Executor = Kysely<Database>;
