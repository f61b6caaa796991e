// A map of the person's geotagged pictures and videos, drawn here from the
// tiles of the URL the administrator set (Dashboard → Settings, `{z}/{x}/{y}`):
// Web Mercator tiles of 256 px as <img>, markers grouped per 48 px cell, zoom
// by buttons or the wheel, pan by dragging. Loaded only when that URL is set,
// so a site without it asks nothing of any other host.
import { ActionIcon, Group, Loader, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { listPlaces, type PhotoPlace } from './api';

const TILE = 256;
const CELL = 48;
const MAX_ZOOM = 18;

/** World pixel coordinates of a place at zoom 0 (multiply by 2^z). */
function project(lat: number, lon: number): { x: number; y: number } {
  const s = Math.sin((Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180);
  return { x: ((lon + 180) / 360) * TILE, y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * TILE };
}

export function tileSrc(template: string, z: number, x: number, y: number): string {
  return template.replaceAll('{z}', String(z)).replaceAll('{x}', String(x)).replaceAll('{y}', String(y));
}

/** The zoom at which all points fit in w × h, and their centre (zoom-0 pixels). */
function fit(points: { x: number; y: number }[], w: number, h: number): { z: number; cx: number; cy: number } {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let z = 0;
  while (z < 15 && (x1 - x0) * 2 ** (z + 1) < w - 80 && (y1 - y0) * 2 ** (z + 1) < h - 80) z++;
  return { z, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 };
}

/** What the map's corner credits: the administrator's text, else the host the tiles come from. */
export function attributionText(attribution: string, tileUrl: string): { text: string; isHost: boolean } {
  if (attribution.trim()) return { text: attribution.trim(), isHost: false };
  try {
    return { text: new URL(tileSrc(tileUrl, 0, 0, 0)).host, isHost: true };
  } catch {
    return { text: tileUrl, isHost: true };
  }
}

export default function PhotoMap({ tileUrl, attribution, onOpen }: { tileUrl: string; attribution: string; onOpen(id: string): void }) {
  const { t } = useTranslation();
  const places = useQuery({ queryKey: ['photo-places'], queryFn: listPlaces });
  const credit = attributionText(attribution, tileUrl);
  const { ref, width, height } = useElementSize();
  const points = useMemo(() => (places.data ?? []).map((p: PhotoPlace) => ({ id: p.id, ...project(p.lat, p.lon) })), [places.data]);
  const [view, setView] = useState<{ z: number; cx: number; cy: number } | null>(null);
  useEffect(() => {
    if (!view && points.length > 0 && width > 0) setView(fit(points, width, height));
  }, [view, points, width, height]);

  const drag = useRef<{ x: number; y: number } | null>(null);
  const zoomBy = (d: number, at?: { cx: number; cy: number }) =>
    setView((v) => (v ? { z: Math.max(1, Math.min(MAX_ZOOM, v.z + d)), cx: at?.cx ?? v.cx, cy: at?.cy ?? v.cy } : v));

  if (places.isPending) return <Loader aria-label={t('common.loading')} />;
  if (points.length === 0)
    return (
      <Text c="dimmed" size="sm" data-testid="map-none">
        {t('photos.mapNone')}
      </Text>
    );

  const v = view ?? { z: 1, cx: TILE / 2, cy: TILE / 2 };
  const scale = 2 ** v.z;
  const left = v.cx * scale - width / 2;
  const top = v.cy * scale - height / 2;
  const n = 2 ** v.z;
  const tiles: { key: string; src: string; x: number; y: number }[] = [];
  if (width > 0)
    for (let ty = Math.max(0, Math.floor(top / TILE)); ty <= Math.min(n - 1, Math.floor((top + height) / TILE)); ty++)
      for (let tx = Math.floor(left / TILE); tx <= Math.floor((left + width) / TILE); tx++)
        tiles.push({ key: `${v.z}/${tx}/${ty}`, src: tileSrc(tileUrl, v.z, ((tx % n) + n) % n, ty), x: tx * TILE - left, y: ty * TILE - top });

  // Markers: one per 48 px cell in view, at the mean of its points.
  const cells = new Map<string, { ids: string[]; x: number; y: number }>();
  for (const p of points) {
    const x = p.x * scale - left;
    const y = p.y * scale - top;
    if (x < -CELL || y < -CELL || x > width + CELL || y > height + CELL) continue;
    const key = `${Math.floor(x / CELL)},${Math.floor(y / CELL)}`;
    const c = cells.get(key) ?? { ids: [], x: 0, y: 0 };
    c.ids.push(p.id);
    c.x += x;
    c.y += y;
    cells.set(key, c);
  }

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    drag.current = { x: e.clientX, y: e.clientY };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    drag.current = { x: e.clientX, y: e.clientY };
    setView((cur) => (cur ? { ...cur, cx: cur.cx - dx / 2 ** cur.z, cy: cur.cy - dy / 2 ** cur.z } : cur));
  };
  const onWheel = (e: WheelEvent<HTMLDivElement>) => zoomBy(e.deltaY < 0 ? 1 : -1);

  return (
    <div className="photo-map" role="region" aria-label={t('photos.mapLabel')} data-testid="photo-map">
      <div ref={ref} className="photo-map-canvas" onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={() => (drag.current = null)} onWheel={onWheel}>
        {tiles.map((tl) => (
          <img key={tl.key} src={tl.src} alt="" className="photo-map-tile" style={{ transform: `translate(${tl.x}px, ${tl.y}px)` }} draggable={false} referrerPolicy="no-referrer" />
        ))}
        {[...cells.entries()].map(([key, c]) => {
          const x = c.x / c.ids.length;
          const y = c.y / c.ids.length;
          const many = c.ids.length > 1;
          return (
            <button
              key={key}
              type="button"
              className="photo-map-marker"
              data-testid="map-marker"
              style={{ transform: `translate(${x}px, ${y}px)` }}
              aria-label={many ? t('photos.mapCluster', { count: c.ids.length }) : t('photos.mapOne')}
              onClick={() => (many ? zoomBy(2, { cx: (x + left) / scale, cy: (y + top) / scale }) : onOpen(c.ids[0]!))}
            >
              {many ? c.ids.length : ''}
            </button>
          );
        })}
      </div>
      <Text component="p" size="xs" className="photo-map-attribution" data-testid="map-attribution">
        {credit.isHost ? t('photos.mapTiles', { host: credit.text }) : credit.text}
      </Text>
      <Group gap={4} className="photo-map-zoom">
        <ActionIcon variant="default" onClick={() => zoomBy(1)} aria-label={t('photos.zoomIn')} disabled={v.z >= MAX_ZOOM}>
          <IconPlus size={16} aria-hidden="true" />
        </ActionIcon>
        <ActionIcon variant="default" onClick={() => zoomBy(-1)} aria-label={t('photos.zoomOut')} disabled={v.z <= 1}>
          <IconMinus size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
    </div>
  );
}
