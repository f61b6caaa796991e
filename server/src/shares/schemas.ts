// Request shapes of the share routes. Paths are checked in full by the file
// feature's parser (names.ts); the schemas bound sizes and types.
import { Type } from 'typebox';
import { Path } from '../files/schemas.js';
import { MAX_DOWNLOAD_LIMIT, MAX_EXPIRY_SECONDS } from './service.js';
import { MAX_FILES_LIMIT, MAX_FILE_SIZE_LIMIT } from './upload-requests.js';

export { Path };

export const READ = { auth: 'required' as const, scopes: ['Shares.Read'] };
export const WRITE = { auth: 'required' as const, scopes: ['Shares.Write'] };
export const ADMIN_READ = { auth: 'required' as const, admin: true, scopes: ['Admin.Read', 'Shares.Read'] };
export const ADMIN_WRITE = { auth: 'required' as const, admin: true, scopes: ['Admin.Write', 'Shares.Write'] };
export const PUBLIC = { auth: 'none' as const };

export const ShareIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' }) });
/** A new share password: at least 4 characters (guessing is throttled), no NUL. */
export const SharePassword = Type.String({ minLength: 4, maxLength: 128, pattern: '^[^\\u0000]*$' });
/** A password offered to unlock: any length up to the maximum. */
export const OfferedPassword = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000]*$' });
export const ExpiresAt = Type.String({ minLength: 1, maxLength: 64 });
export const ExpiresIn = Type.Integer({ minimum: 1, maximum: MAX_EXPIRY_SECONDS });
export const DownloadLimit = Type.Integer({ minimum: 1, maximum: MAX_DOWNLOAD_LIMIT });
export const UnlockToken = Type.String({ minLength: 1, maxLength: 128 });
export const PageToken = Type.String({ minLength: 1, maxLength: 4096 });
/** Upload requests: the largest file accepted, in bytes (at most 1 TiB). */
export const MaxFileSize = Type.Integer({ minimum: 1, maximum: MAX_FILE_SIZE_LIMIT });
/** Upload requests: how many files the link accepts in all. */
export const MaxFiles = Type.Integer({ minimum: 1, maximum: MAX_FILES_LIMIT });
