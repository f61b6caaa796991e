// /s/:id in a browser: whose share it is, the item's name and size, expiry,
// a password prompt when needed, folder browsing with breadcrumbs, previews,
// Download and download-as-ZIP. No account needed; tools that fetch the same
// URL get the bytes (the server decides, api-contract §10).
import '../../styles/mantine-rest.css';
import { ActionIcon, Alert, Anchor, Box, Breadcrumbs, Button, Card, Center, Group, Loader, Modal, PasswordInput, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconDownload, IconFileZip, IconLock } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { formatDate, formatSize } from '../../app/format';
import { navigate, useLocation } from '../../app/router';
import type { PageProps } from '../../app/page-props';
import { ThemeToggle } from '../../app/ThemeToggle';
import { BrandMark } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { FileIcon, kindOf } from '../files/icons';
import { TextView } from '../files/Preview';
import { browseShare, shareDownloadUrl, shareInfo, unlockShare, type SharedItem } from './api';
import { pageTitle } from '../account/api';

const tokenKey = (id: string) => `cirrus.share.${id}`;
// Upload requests only: their page and tus-js-client load when one is opened.
const UploadRequest = lazy(() => import('./UploadRequest'));

/** What the page can show of a file, as the signed-in preview does. */
function PreviewBody({ item, url }: { item: SharedItem; url: string }) {
  const kind = kindOf(item);
  const { t } = useTranslation();
  if (kind === 'image') return <img src={url} alt={item.name} style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }} />;
  if (kind === 'video') return <video src={url} controls style={{ maxWidth: '100%', maxHeight: '70vh' }} aria-label={item.name} />;
  if (kind === 'audio') return <audio src={url} controls aria-label={item.name} />;
  if (kind === 'pdf') return <iframe src={url} title={item.name} style={{ width: '100%', height: '70vh', border: 0 }} />;
  if (kind === 'text' || kind === 'code') return <TextView url={url} name={item.name} code={kind === 'code'} size={item.size} />;
  return <Text c="dimmed">{t('files.preview.none')}</Text>;
}

const PREVIEWABLE = new Set(['image', 'video', 'audio', 'pdf', 'text', 'code']);

function InlinePreview({ item, url, downloadUrl, onClose }: { item: SharedItem; url: string; downloadUrl: string; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={item.name} size="80rem" centered styles={{ title: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}>
      <Stack>
        <Center mih={120}>
          <PreviewBody item={item} url={url} />
        </Center>
        <Group justify="flex-end" gap="xs">
          <Text size="sm" c="dimmed">
            {formatSize(item.size)}
          </Text>
          <Button component="a" href={downloadUrl} variant="light" leftSection={<IconDownload size={16} aria-hidden="true" />}>
            {t('common.download')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export default function PublicSharePage({ params }: PageProps) {
  const id = params.id!;
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { search } = useLocation();
  const folder = new URLSearchParams(search).get('folder') || '/';
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(tokenKey(id)));
  const info = useQuery({ queryKey: ['public-share', id, token], queryFn: () => shareInfo(id, token), retry: false });
  const [password, setPassword] = useState('');
  const [unlockError, setUnlockError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<SharedItem | null>(null);
  const share = info.data;
  const open = share && share.unlocked;

  useEffect(() => {
    document.title = share?.name ? pageTitle(`${share.name}`) : pageTitle(`${t('publicShare.title')}`);
  }, [share, t]);

  const listing = useInfiniteQuery({
    queryKey: ['public-share-list', id, folder, token],
    queryFn: ({ pageParam }) => browseShare(id, folder, token, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_page_token,
    enabled: Boolean(open && share?.type === 'folder' && !share.upload_only),
  });
  const items = useMemo(() => listing.data?.pages.flatMap((p) => p.files) ?? [], [listing.data]);

  const unlock = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setUnlockError(null);
    try {
      const r = await unlockShare(id, password);
      sessionStorage.setItem(tokenKey(id), r.token);
      setToken(r.token);
      void qc.invalidateQueries({ queryKey: ['public-share', id] });
    } catch (err) {
      setUnlockError(err instanceof ApiError && err.status === 403 ? t('publicShare.wrongPassword') : errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  const previewKind = share?.type === 'file' ? kindOf({ type: 'file', name: share.name ?? '', mime_type: share.mime_type ?? guessMime(share.name ?? '') }) : null;
  // A folder, or a file shown on the page (image, text, code), gets the wide card.
  const wide = Boolean(open && (share?.type === 'folder' || share?.upload_only || previewKind === 'image' || previewKind === 'text' || previewKind === 'code'));
  const goFolder = (p: string) => navigate(`/s/${encodeURIComponent(id)}${p === '/' ? '' : `?folder=${encodeURIComponent(p)}`}`);
  const segs = folder.split('/').filter(Boolean);

  let body;
  if (info.isLoading) body = <Center py="xl"><Loader aria-label={t('common.loading')} /></Center>;
  else if (info.error || !share) {
    const gone = info.error instanceof ApiError && info.error.status === 404;
    body = (
      <Stack align="center" ta="center" py="lg">
        <Title order={1} fz={22}>
          {gone ? t('publicShare.gone') : t('common.error')}
        </Title>
        <Text c="dimmed">{gone ? t('publicShare.goneHint') : errorMessage(info.error, t)}</Text>
      </Stack>
    );
  } else if (!share.unlocked) {
    body = (
      <form onSubmit={unlock}>
        <Stack>
          <Group gap="xs">
            <IconLock size={22} aria-hidden="true" />
            <Title order={1} fz={22}>
              {t('publicShare.protected')}
            </Title>
          </Group>
          <Text size="sm" c="dimmed">
            {t('publicShare.protectedHint', { owner: share.owner.nickname })}
          </Text>
          <PasswordInput label={t('shares.password')} value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={unlockError} autoFocus required withAsterisk={false} />
          <Button type="submit" loading={busy}>
            {t('publicShare.unlock')}
          </Button>
        </Stack>
      </form>
    );
  } else if (share.upload_only) {
    body = (
      <Suspense fallback={<Center py="xl"><Loader aria-label={t('common.loading')} /></Center>}>
        <UploadRequest
          id={id}
          share={share}
          token={token}
          onLocked={() => {
            sessionStorage.removeItem(tokenKey(id));
            setToken(null);
          }}
        />
      </Suspense>
    );
  } else {
    const meta = (
      <Text size="sm" c="dimmed">
        {t('publicShare.sharedBy', { owner: share.owner.nickname })}
        {share.expires_at ? ` · ${t('publicShare.expires', { date: formatDate(share.expires_at) })}` : ''}
      </Text>
    );
    if (share.type === 'file') {
      const item: SharedItem = { name: share.name ?? '', path: '/', type: 'file', size: share.size ?? 0, mime_type: share.mime_type ?? guessMime(share.name ?? ''), updated_at: share.created_at };
      const kind = kindOf(item);
      // Images, text and code are shown on the page itself; PDF, audio and video on request.
      const shownInline = kind === 'image' || kind === 'text' || kind === 'code';
      body = (
        <Stack align="center" ta="center">
          {!shownInline && <FileIcon item={item} size={56} />}
          <Title order={1} fz={22} style={{ wordBreak: 'break-word' }}>
            {share.name}
          </Title>
          <Text size="sm">{formatSize(share.size)}</Text>
          {meta}
          <Group justify="center">
            <Button component="a" href={shareDownloadUrl(id, null, token)} leftSection={<IconDownload size={16} aria-hidden="true" />}>
              {t('common.download')}
            </Button>
            {!shownInline && PREVIEWABLE.has(kind) && (
              <Button variant="default" onClick={() => setPreview(item)}>
                {t('publicShare.preview')}
              </Button>
            )}
          </Group>
          {shownInline && (
            <Box w="100%" ta="left" data-testid="share-preview">
              <Center>
                <PreviewBody item={item} url={shareDownloadUrl(id, null, token, true)} />
              </Center>
            </Box>
          )}
        </Stack>
      );
    } else {
      body = (
        <Stack>
          <Group justify="space-between" wrap="wrap">
            <div>
              <Title order={1} fz={22}>
                {share.name}
              </Title>
              {meta}
            </div>
            <Button component="a" href={shareDownloadUrl(id, folder, token)} leftSection={<IconFileZip size={16} aria-hidden="true" />} variant="light">
              {t('publicShare.downloadZip')}
            </Button>
          </Group>
          <Breadcrumbs separatorMargin={6} aria-label={t('files.location')}>
            <Anchor component="button" type="button" onClick={() => goFolder('/')} fz="sm">
              {share.name}
            </Anchor>
            {segs.map((s, i) => (
              <Anchor component="button" type="button" key={i} fz="sm" onClick={() => goFolder('/' + segs.slice(0, i + 1).join('/'))}>
                {s}
              </Anchor>
            ))}
          </Breadcrumbs>
          {listing.error ? (
            <Alert color="red" role="alert">
              {errorMessage(listing.error, t)}
            </Alert>
          ) : (
            <Table verticalSpacing="xs" highlightOnHover aria-label={share.name ?? ''} style={{ tableLayout: 'fixed' }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common.name')}</Table.Th>
                  <Table.Th visibleFrom="sm" w={110}>
                    {t('common.size')}
                  </Table.Th>
                  {/* The actions column keeps its room on a phone: Download stays on screen. */}
                  <Table.Th w={{ base: 56, sm: 150 }}>
                    <span className="sr-only">{t('shares.actions')}</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => {
                  const href = shareDownloadUrl(id, item.path, token);
                  const label = t('publicShare.downloadName', { name: item.name });
                  return (
                    <Table.Tr key={item.path}>
                      <Table.Td>
                        <UnstyledButton
                          onClick={() => (item.type === 'folder' ? goFolder(item.path) : setPreview(item))}
                          style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0, maxWidth: '100%' }}
                        >
                          <Box style={{ flex: 'none', display: 'flex' }}>
                            <FileIcon item={item} />
                          </Box>
                          <Box style={{ minWidth: 0 }}>
                            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                              {item.name}
                            </Text>
                            <Text size="xs" c="dimmed" hiddenFrom="sm">
                              {item.type === 'folder' ? t('publicShare.folder') : formatSize(item.size)}
                            </Text>
                          </Box>
                        </UnstyledButton>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        <Text size="sm" c="dimmed">
                          {item.type === 'folder' ? '—' : formatSize(item.size)}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button
                          component="a"
                          size="compact-sm"
                          variant="subtle"
                          href={href}
                          aria-label={label}
                          visibleFrom="sm"
                          leftSection={<IconDownload size={14} aria-hidden="true" />}
                        >
                          {item.type === 'folder' ? 'ZIP' : t('common.download')}
                        </Button>
                        <ActionIcon component="a" href={href} variant="subtle" size="lg" aria-label={label} hiddenFrom="sm">
                          <IconDownload size={18} aria-hidden="true" />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
          {listing.isLoading && <Loader size="sm" aria-label={t('common.loading')} />}
          {!listing.isLoading && items.length === 0 && !listing.error && (
            <Text c="dimmed" size="sm">
              {t('publicShare.emptyFolder')}
            </Text>
          )}
          {listing.hasNextPage && (
            <Button variant="default" onClick={() => void listing.fetchNextPage()}>
              {t('search.more')}
            </Button>
          )}
        </Stack>
      );
    }
  }

  return (
    <Box className="cirrus-backdrop">
      <Stack component="main" w="100%" maw={wide ? 900 : 520} gap="lg" px={{ base: 'xs', sm: 'md' }} py={{ base: 16, sm: 40 }}>
        <Group justify="space-between">
          <BrandMark />
          <ThemeToggle />
        </Group>
        <Card withBorder shadow="md" radius="lg" p={{ base: 'md', sm: 'xl' }}>
          {body}
        </Card>
      </Stack>
      {preview && (
        <InlinePreview
          item={preview}
          url={shareDownloadUrl(id, preview.path === '/' ? null : preview.path, token, true)}
          downloadUrl={shareDownloadUrl(id, preview.path === '/' ? null : preview.path, token)}
          onClose={() => setPreview(null)}
        />
      )}
    </Box>
  );
}

function guessMime(name: string): string | null {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  const map: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', mp4: 'video/mp4', webm: 'video/webm', mp3: 'audio/mpeg', ogg: 'audio/ogg', wav: 'audio/wav', pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown' };
  return map[ext] ?? null;
}
