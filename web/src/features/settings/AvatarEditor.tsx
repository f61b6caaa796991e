// Picks the square of a picture that becomes the avatar: the picture fills a
// square frame; drag it (or use the arrow keys) to place it and the slider to
// zoom. The chosen square is drawn to a 512-pixel canvas and uploaded; the
// server resizes it to 256 pixels (and crops any picture sent to it directly
// to its centre, so the API alone also gives a square).
import { Alert, Button, Group, Modal, Slider, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/errorMessage';
import { uploadAvatar } from './api';

const VIEW = 240;
const OUT = 512;

interface Placement {
  zoom: number;
  x: number;
  y: number;
}

export function AvatarEditor({ file, onClose, onSaved }: { file: File | null; onClose(): void; onSaved(url: string): void }) {
  const { t } = useTranslation();
  const [img, setImg] = useState<HTMLImageElement | null>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [place, setPlace] = useState<Placement>({ zoom: 1, x: 0, y: 0 });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const drag = useRef<{ px: number; py: number; x: number; y: number } | null>(null);

  useEffect(() => {
    setImg(null);
    setError(null);
    if (!file) return;
    const url = URL.createObjectURL(file);
    setSrc(url);
    const image = new Image();
    image.onload = () => {
      setImg(image);
      const base = VIEW / Math.min(image.naturalWidth, image.naturalHeight);
      // Centred to start with, as the server would crop it.
      setPlace({ zoom: 1, x: (VIEW - image.naturalWidth * base) / 2, y: (VIEW - image.naturalHeight * base) / 2 });
    };
    image.onerror = () => setError(t('settings.profile.avatarUnreadable'));
    image.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file, t]);

  const scale = (zoom: number) => (img ? (VIEW / Math.min(img.naturalWidth, img.naturalHeight)) * zoom : 1);
  // The picture always covers the frame: no empty corner can be chosen.
  const clamp = (p: Placement): Placement => {
    if (!img) return p;
    const s = scale(p.zoom);
    const w = img.naturalWidth * s;
    const h = img.naturalHeight * s;
    return { zoom: p.zoom, x: Math.min(0, Math.max(VIEW - w, p.x)), y: Math.min(0, Math.max(VIEW - h, p.y)) };
  };
  const zoomTo = (zoom: number) =>
    setPlace((p) => {
      // Zoom about the frame's centre.
      const k = zoom / p.zoom;
      return clamp({ zoom, x: VIEW / 2 - (VIEW / 2 - p.x) * k, y: VIEW / 2 - (VIEW / 2 - p.y) * k });
    });

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { px: e.clientX, py: e.clientY, x: place.x, y: place.y };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) setPlace(clamp({ zoom: place.zoom, x: d.x + e.clientX - d.px, y: d.y + e.clientY - d.py }));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 40 : 8;
    const move: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const m = move[e.key];
    if (!m) return;
    e.preventDefault();
    setPlace((p) => clamp({ zoom: p.zoom, x: p.x + m[0], y: p.y + m[1] }));
  };

  const save = async () => {
    if (!img) return;
    setBusy(true);
    setError(null);
    try {
      const s = scale(place.zoom);
      const canvas = document.createElement('canvas');
      canvas.width = OUT;
      canvas.height = OUT;
      canvas.getContext('2d')!.drawImage(img, -place.x / s, -place.y / s, VIEW / s, VIEW / s, 0, 0, OUT, OUT);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', 0.92));
      if (!blob) throw new Error(t('settings.profile.avatarUnreadable'));
      onSaved(await uploadAvatar(blob));
      onClose();
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  const s = scale(place.zoom);
  return (
    <Modal opened={file !== null} onClose={onClose} title={t('settings.profile.avatarTitle')} centered size="auto">
      <Stack align="center" gap="sm">
        <div
          role="img"
          aria-label={t('settings.profile.avatarFrame')}
          tabIndex={0}
          data-testid="avatar-frame"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={() => (drag.current = null)}
          onKeyDown={onKeyDown}
          style={{ width: VIEW, height: VIEW, position: 'relative', overflow: 'hidden', borderRadius: 12, cursor: 'grab', touchAction: 'none', background: 'var(--mantine-color-default-hover)' }}
        >
          {img && src && (
            <img
              src={src}
              alt=""
              draggable={false}
              style={{ position: 'absolute', left: place.x, top: place.y, width: img.naturalWidth * s, height: img.naturalHeight * s, maxWidth: 'none', userSelect: 'none', pointerEvents: 'none' }}
            />
          )}
          {/* The round shape the avatar is shown in. */}
          <div aria-hidden="true" style={{ position: 'absolute', inset: 0, borderRadius: '50%', boxShadow: '0 0 0 999px rgba(0,0,0,0.45)', pointerEvents: 'none' }} />
        </div>
        <Text size="xs" c="dimmed" ta="center" maw={VIEW + 40}>
          {t('settings.profile.avatarHint')}
        </Text>
        <Slider w={VIEW} min={1} max={4} step={0.05} value={place.zoom} onChange={zoomTo} label={null} thumbLabel={t('settings.profile.avatarZoom')} disabled={!img} />
        {error && (
          <Alert color="red" role="alert" w={VIEW + 40}>
            {error}
          </Alert>
        )}
        <Group justify="flex-end" w="100%">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void save()} loading={busy} disabled={!img}>
            {t('settings.profile.avatarSave')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
