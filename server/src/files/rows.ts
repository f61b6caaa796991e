// The file row and its two kinds: the vocabulary other features (sharing,
// teams, WebDAV, the sync door) share with the file feature. It lives apart
// from repository.ts because only the file feature may use its repository.
import type { FileRow } from '../db/schema.js';

export type { FileRow };

export const FOLDER = 0;
export const FILE = 1;
