// An OAuth app's icon: an http(s) URL is shown as an image that sends no
// referrer; an icon name is drawn from the app's own icon set (Tabler), the
// names the server accepts; while it loads, or if an image fails (e.g. blocked
// by the CSP), the app's initials stand in, so no third-party resource is needed.
import { Avatar } from '@mantine/core';
import { TablerIcon } from './TablerIcon';

export function isIconUrl(icon: string): boolean {
  return /^https?:\/\//i.test(icon);
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}

export function AppAvatar({ name, icon, size = 64 }: { name: string; icon: string; size?: number }) {
  if (!isIconUrl(icon)) {
    return (
      <Avatar color="indigo" size={size} radius="md" variant="light">
        <TablerIcon name={icon} size={Math.round(size * 0.6)} label={`${name} icon`} fallback={initials(name)} />
      </Avatar>
    );
  }
  return (
    <Avatar
      src={icon}
      imageProps={{ referrerPolicy: 'no-referrer' }}
      alt={`${name} icon`}
      name={name}
      color="indigo"
      size={size}
      radius="md"
      variant="filled"
    />
  );
}
