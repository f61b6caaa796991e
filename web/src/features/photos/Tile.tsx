// One square of the Photos grid: the thumbnail (fetched with the token, see
// api.ts), a play badge with the length on videos, and the item's name as the
// button's accessible name.
import { IconMovie, IconPhoto, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cachedThumb, isVideo, loadThumb, type PhotoItem } from './api';
import { formatDuration } from './layout';

/** Thumbnails are asked at 256 px: a tile is at most ~200 CSS px (×2 on a phone's screen still reads sharp). */
const THUMB_SIZE = 256;

export function Tile({ item, size, day, onOpen }: { item: PhotoItem; size: number; day: string; onOpen(item: PhotoItem): void }) {
  const { t } = useTranslation();
  const key = `${item.id}:${item.path}:${item.size}`;
  const [url, setUrl] = useState<string | null | undefined>(() => cachedThumb(key));
  useEffect(() => {
    let alive = true;
    const known = cachedThumb(key);
    if (known !== undefined) setUrl(known);
    else void loadThumb(key, item.path, THUMB_SIZE).then((u) => alive && setUrl(u));
    return () => {
      alive = false;
    };
  }, [key, item.path]);

  const video = isVideo(item);
  const duration = video && item.media?.duration !== undefined ? formatDuration(item.media.duration) : null;
  const label = video ? (duration ? t('photos.videoNamed', { name: item.name, duration }) : t('photos.videoNamedNoLength', { name: item.name })) : item.name;
  const Icon = video ? IconMovie : IconPhoto;
  return (
    <button type="button" className="photo-tile" style={{ width: size, height: size }} data-id={item.id} data-day={day} data-testid="photo-tile" aria-label={label} onClick={() => onOpen(item)}>
      {url ? <img src={url} alt="" draggable={false} /> : url === null ? <Icon size={Math.min(48, size / 3)} stroke={1.5} aria-hidden="true" className="photo-tile-icon" /> : null}
      {video && (
        <span className="photo-badge" aria-hidden="true">
          <IconPlayerPlayFilled size={12} />
          {duration}
        </span>
      )}
    </button>
  );
}
