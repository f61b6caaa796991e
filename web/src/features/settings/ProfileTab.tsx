// Profile: nickname, avatar (upload with a square crop, remove; initials
// otherwise), e-mail, the UID with a copy button, group and storage used.
import { Avatar, Badge, Button, Code, CopyButton, FileButton, Group, Progress, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatSize } from '../../app/format';
import { useSession } from '../../app/session';
import { capacityQuery } from '../../app/StorageBar';
import { errorMessage } from '../../components/errorMessage';
import { avatarUrl, deleteAvatar, updateNickname } from './api';
import { AvatarEditor } from './AvatarEditor';
import { EmailSection } from './EmailSection';

const PICTURE_TYPES = 'image/png,image/jpeg,image/webp,image/gif,image/avif';

export default function ProfileTab() {
  const { t } = useTranslation();
  const { session, signedIn } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const [nickname, setNickname] = useState(user?.nickname ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { data: cap } = useQuery(capacityQuery);
  const [picked, setPicked] = useState<File | null>(null);
  const [removing, setRemoving] = useState(false);
  if (!user) return null;

  const removeAvatar = async () => {
    setRemoving(true);
    try {
      await deleteAvatar();
      signedIn({ ...user, avatar_url: null });
      notifications.show({ color: 'teal', message: t('settings.profile.avatarRemoved') });
    } catch (err) {
      notifications.show({ color: 'red', title: t('common.error'), message: errorMessage(err, t) });
    } finally {
      setRemoving(false);
    }
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signedIn(await updateNickname(nickname.trim()));
      notifications.show({ color: 'teal', message: t('settings.profile.saved') });
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="lg" maw={560}>
      <Group align="flex-start">
        <Stack gap={6} align="center">
          <Avatar src={avatarUrl(user)} name={user.nickname || user.email} size={72} radius={1000} alt={t('settings.profile.avatarAlt')} data-testid="profile-avatar" />
          <FileButton onChange={setPicked} accept={PICTURE_TYPES}>
            {(props) => (
              <Button {...props} size="compact-xs" variant="light">
                {user.avatar_url ? t('settings.profile.avatarChange') : t('settings.profile.avatarUpload')}
              </Button>
            )}
          </FileButton>
          {user.avatar_url && (
            <Button size="compact-xs" variant="subtle" color="red" onClick={() => void removeAvatar()} loading={removing}>
              {t('settings.profile.avatarRemove')}
            </Button>
          )}
        </Stack>
        <div>
          <Text fw={600} fz="lg">
            {user.nickname || user.email}
          </Text>
          <Group gap={6}>
            <Badge variant="light">{user.group.name}</Badge>
            {user.is_admin && (
              <Badge variant="light" color="grape">
                {t('settings.profile.admin')}
              </Badge>
            )}
          </Group>
        </div>
      </Group>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('settings.profile.uid')}
        </Text>
        <Group gap="xs">
          <Code fz="sm" data-testid="uid">
            {user.id}
          </Code>
          <CopyButton value={user.id}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('common.copied') : t('settings.profile.copyUid')}>
                <Button size="compact-sm" variant="light" onClick={copy} color={copied ? 'teal' : undefined}>
                  {copied ? t('common.copied') : t('settings.profile.copyUid')}
                </Button>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Text size="xs" c="dimmed">
          {t('settings.profile.uidHint')}
        </Text>
      </Stack>
      <EmailSection user={user} />
      <form onSubmit={save}>
        <Group align="flex-end" gap="xs">
          <TextInput label={t('settings.profile.nickname')} value={nickname} onChange={(e) => setNickname(e.currentTarget.value)} error={error} style={{ flex: 1 }} maxLength={100} />
          <Button type="submit" loading={busy} disabled={nickname.trim() === '' || nickname === user.nickname}>
            {t('common.save')}
          </Button>
        </Group>
      </form>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('storage.title')}
        </Text>
        {cap && (
          <>
            <Progress value={cap.total ? Math.round((cap.used / cap.total) * 1000) / 10 : 0} aria-label={t('storage.used', { used: formatSize(cap.used), total: formatSize(cap.total) })} />
            <Text size="sm" c="dimmed">
              {t('storage.used', { used: formatSize(cap.used), total: formatSize(cap.total) })}
            </Text>
          </>
        )}
      </Stack>
      <Text size="xs" c="dimmed">
        {t('settings.profile.memberSince', { date: formatDate(user.created_at) })}
      </Text>
      <AvatarEditor
        file={picked}
        onClose={() => setPicked(null)}
        onSaved={(url) => {
          signedIn({ ...user, avatar_url: url });
          notifications.show({ color: 'teal', message: t('settings.profile.avatarSaved') });
        }}
      />
    </Stack>
  );
}
