// /s/:id in a browser: whose share it is, the item's name and size, expiry,
// a password prompt when needed, folder browsing with breadcrumbs, previews,
// Download and download-as-ZIP. No account needed; tools that fetch the same
// URL get the bytes (the server decides, api-contract §10).
import '../../styles/mantine-rest.css';
import { Alert, Anchor, Box, Breadcrumbs, Button, Card, Center, Group, Loader, Modal, PasswordInput, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconDownload, IconFileZip, IconLock } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { formatDate, formatSize } from '../../app/format';
import { navigate, useLocation } from '../../app/router';
import type { PageProps } from '../../app/routes';
import { ThemeToggle } from '../../app/ThemeToggle';
import { BrandMark } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { FileIcon, kindOf } from '../files/icons';
import { browseShare, shareDownloadUrl, shareInfo, unlockShare, type SharedItem } from './api';

const tokenKey = (id: string) => `cirrus.share.${id}`;

function InlinePreview({ item, url, onClose }: { item: SharedItem; url: string; onClose(): void }) {
  const kind = kindOf(item);
  const { t } = useTranslation();
  let body;
  if (kind === 'image') body = <img src={url} alt={item.name} style={{ maxWidth: '100%', maxHeight: '70vh' }} />;
  else if (kind === 'video') body = <video src={url} controls style={{ maxWidth: '100%', maxHeight: '70vh' }} aria-label={item.name} />;
  else if (kind === 'audio') body = <audio src={url} controls aria-label={item.name} />;
  else if (kind === 'pdf') body = <iframe src={url} title={item.name} style={{ width: '100%', height: '70vh', border: 0 }} />;
  else body = <Text c="dimmed">{t('files.preview.none')}</Text>;
  return (
    <Modal opened onClose={onClose} title={item.name} size="80rem" centered>
      <Center>{body}</Center>
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
    document.title = share?.name ? `${share.name} · Cirrus` : `${t('publicShare.title')} · Cirrus`;
  }, [share, t]);

  const listing = useInfiniteQuery({
    queryKey: ['public-share-list', id, folder, token],
    queryFn: ({ pageParam }) => browseShare(id, folder, token, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_page_token,
    enabled: Boolean(open && share?.type === 'folder'),
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
  } else {
    const meta = (
      <Text size="sm" c="dimmed">
        {t('publicShare.sharedBy', { owner: share.owner.nickname })}
        {share.expires_at ? ` · ${t('publicShare.expires', { date: formatDate(share.expires_at) })}` : ''}
      </Text>
    );
    if (share.type === 'file') {
      const item: SharedItem = { name: share.name ?? '', path: '/', type: 'file', size: share.size ?? 0, mime_type: null, updated_at: share.created_at };
      body = (
        <Stack align="center" ta="center">
          <FileIcon item={{ ...item, mime_type: guessMime(item.name) }} size={56} />
          <Title order={1} fz={22} style={{ wordBreak: 'break-word' }}>
            {share.name}
          </Title>
          <Text size="sm">{formatSize(share.size)}</Text>
          {meta}
          <Group>
            <Button component="a" href={shareDownloadUrl(id, null, token)} leftSection={<IconDownload size={16} aria-hidden="true" />}>
              {t('common.download')}
            </Button>
            {['image', 'video', 'audio', 'pdf'].includes(kindOf({ ...item, mime_type: guessMime(item.name) })) && (
              <Button variant="default" onClick={() => setPreview({ ...item, mime_type: guessMime(item.name) })}>
                {t('publicShare.preview')}
              </Button>
            )}
          </Group>
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
            <Table.ScrollContainer minWidth={420}>
              <Table verticalSpacing="xs" highlightOnHover aria-label={share.name ?? ''}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('common.name')}</Table.Th>
                    <Table.Th>{t('common.size')}</Table.Th>
                    <Table.Th>
                      <span className="sr-only">{t('shares.actions')}</span>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((item) => (
                    <Table.Tr key={item.path}>
                      <Table.Td>
                        <UnstyledButton
                          onClick={() => (item.type === 'folder' ? goFolder(item.path) : setPreview(item))}
                          style={{ display: 'flex', alignItems: 'center', gap: 8 }}
                        >
                          <FileIcon item={item} />
                          <Text size="sm">{item.name}</Text>
                        </UnstyledButton>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {item.type === 'folder' ? '—' : formatSize(item.size)}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button
                          component="a"
                          size="compact-sm"
                          variant="subtle"
                          href={shareDownloadUrl(id, item.path, token)}
                          aria-label={t('publicShare.downloadName', { name: item.name })}
                          leftSection={<IconDownload size={14} aria-hidden="true" />}
                        >
                          {item.type === 'folder' ? 'ZIP' : t('common.download')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
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
      <Stack component="main" w="100%" maw={share?.type === 'folder' && open ? 900 : 520} gap="lg" px="md" py={40}>
        <Group justify="space-between">
          <BrandMark />
          <ThemeToggle />
        </Group>
        <Card withBorder shadow="md" radius="lg" p="xl">
          {body}
        </Card>
      </Stack>
      {preview && <InlinePreview item={preview} url={shareDownloadUrl(id, preview.path === '/' ? null : preview.path, token, true)} onClose={() => setPreview(null)} />}
    </Box>
  );
}

function guessMime(name: string): string | null {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  const map: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', mp4: 'video/mp4', webm: 'video/webm', mp3: 'audio/mpeg', ogg: 'audio/ogg', wav: 'audio/wav', pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown' };
  return map[ext] ?? null;
}
