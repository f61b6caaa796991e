// Request shapes of the file routes. Names and paths are checked in full by
// names.ts (NFC, bytes, forbidden characters); the schemas bound sizes.
import { Type } from 'typebox';
import { MAX_PATH_BYTES } from './names.js';
import { MAX_PAGE_SIZE } from './service.js';

export const READ = { auth: 'required' as const, scopes: ['Files.Read'] };
export const WRITE = { auth: 'required' as const, scopes: ['Files.Write'] };

export const Path = Type.String({ minLength: 1, maxLength: MAX_PATH_BYTES });
export const Paths = Type.Array(Path, { minItems: 1, maxItems: 1000 });
export const Name = Type.String({ minLength: 1, maxLength: 1024 });
export const FileId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' });
export const Ids = Type.Array(FileId, { minItems: 1, maxItems: 1000 });
export const PageQuery = {
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 100 })),
  next_page_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
};
