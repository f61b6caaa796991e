// The file object of api-contract §6, and the per-item result of batch operations.
import { DomainError } from '../core/errors.js';
import { Type, type Static, type TSchema } from 'typebox';
import { DateTime, Nullable, StringEnum, View } from '../core/schema.js';
import { FOLDER } from './repository.js';
import type { Entry } from './tree.js';

const fileFields = {
  id: Type.String(),
  name: Type.String(),
  path: Type.String(),
  type: StringEnum(['file', 'folder']),
  size: Type.Integer({ description: 'bytes; 0 for folders' }),
  mime_type: Nullable('string', { description: 'null for folders' }),
  created_at: DateTime,
  updated_at: DateTime,
};
/** What was learnt about a picture, video or song (api-contract §16); only the fields known are present. */
export const MediaViewSchema = View(
  {
    width: Type.Optional(Type.Integer()),
    height: Type.Optional(Type.Integer()),
    taken_at: Type.Optional(Type.String({ format: 'date-time', description: "RFC 3339; EXIF DateTimeOriginal (UTC when it gives no offset), a video's creation time" })),
    camera_make: Type.Optional(Type.String()),
    camera_model: Type.Optional(Type.String()),
    lens: Type.Optional(Type.String()),
    exposure_time: Type.Optional(Type.Number({ description: 'seconds' })),
    f_number: Type.Optional(Type.Number()),
    iso: Type.Optional(Type.Number()),
    focal_length: Type.Optional(Type.Number({ description: 'mm' })),
    gps: Type.Optional(View({ lat: Type.Number(), lon: Type.Number() }, { title: 'GpsPoint' })),
    duration: Type.Optional(Type.Number({ description: 'seconds' })),
    codec: Type.Optional(Type.String({ description: 'of the video stream, or of the sound' })),
    title: Type.Optional(Type.String()),
    artist: Type.Optional(Type.String()),
    album: Type.Optional(Type.String()),
  },
  { title: 'MediaInfo' },
);
export type MediaView = Static<typeof MediaViewSchema>;

export const FileViewSchema = View(
  {
    ...fileFields,
    media: Type.Optional(MediaViewSchema),
    team_folder: Type.Optional(
      View(
        { id: Type.String(), permission: StringEnum(['read', 'write'], { description: 'what this member may do in it' }) },
        { title: 'TeamFolderMark', description: 'present on a team folder itself, at the top of My files' },
      ),
    ),
  },
  { title: 'FileView' },
);
export type FileView = Static<typeof FileViewSchema>;

export const TrashViewSchema = View(
  { ...fileFields, trashed_at: DateTime, original_path: Type.String({ description: 'where the item was when it was deleted' }) },
  { title: 'TrashView' },
);
export type TrashView = Static<typeof TrashViewSchema>;

/** `{results: [{<key>, code, msg, file?}]}` of a batch (see batchResult). */
export function BatchResultSchema(key: 'path' | 'id', file?: TSchema) {
  const title = (key === 'path' ? 'BatchPathResult' : 'BatchIdResult') + (file ? 'WithFile' : '');
  const item = View(
    {
      [key]: Type.String(),
      code: Type.Integer({ description: '0, or the error code of this item' }),
      msg: Type.String(),
      ...(file ? { file: Type.Optional(file) } : {}),
    },
    { title },
  );
  return Type.Unsafe<{ results: BatchResultItem[] }>(View({ results: Type.Array(item) }, { title: `${title}s` }));
}

/** One item of a batch answer, as BatchResultSchema declares it. */
export interface BatchResultItem {
  path?: string;
  id?: string;
  code: number;
  msg: string;
  file?: FileView;
}

export interface BatchItem<T> {
  path: string;
  result?: T;
  error?: DomainError;
}

export function toFileView(entry: Entry): FileView {
  const r = entry.row;
  return {
    id: r.id,
    name: r.name,
    path: entry.path,
    type: r.kind === FOLDER ? 'folder' : 'file',
    size: r.kind === FOLDER ? 0 : r.size,
    mime_type: r.kind === FOLDER ? null : r.mime_type,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
    ...(entry.team ? { team_folder: { id: entry.team.id, permission: entry.team.permission } } : {}),
  };
}

/** The file object of GET /file/info: with `media` when something is known about its content. */
export function toFileInfoView(entry: Entry, media: MediaView | null): FileView {
  return media ? { ...toFileView(entry), media } : toFileView(entry);
}

export function toTrashView(entry: Entry): TrashView {
  const path = entry.row.trashed_path ?? entry.path;
  const { team_folder: _team, ...view } = toFileView({ row: entry.row, path });
  return { ...view, trashed_at: new Date(entry.row.trashed_at ?? 0).toISOString(), original_path: path };
}

/**
 * `{results: [{<key>, code, msg, file?}]}`: code 0 per success, else the item's
 * error code. When every item failed, the request fails with the first item's
 * error (status and code) and the results as `data`, so a one-item batch
 * reads like a single operation.
 */
export function batchResult<T>(items: BatchItem<T>[], key: 'path' | 'id', view?: (t: T) => FileView): { results: BatchResultItem[] } {
  const results = items.map((i) =>
    i.error
      ? { [key]: i.path, code: i.error.code, msg: i.error.message }
      : { [key]: i.path, code: 0, msg: '', ...(view && i.result !== undefined ? { file: view(i.result) } : {}) },
  );
  const first = items[0]?.error;
  if (first && items.every((i) => i.error)) {
    throw new DomainError(first.code, first.message, { kind: first.kind, retryAfterSeconds: first.retryAfterSeconds, bodyUnread: first.bodyUnread, data: { results } });
  }
  return { results };
}
