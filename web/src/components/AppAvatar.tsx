// An OAuth app's icon: an http(s) URL is shown as an image that sends no
// referrer; an icon-set name (or an image that fails to load, e.g. blocked by
// the CSP) becomes the app's initials, so no third-party resource is needed.
import { Avatar } from '@mantine/core';

export function isIconUrl(icon: string): boolean {
  return /^https?:\/\//i.test(icon);
}

export function AppAvatar({ name, icon, size = 64 }: { name: string; icon: string; size?: number }) {
  return (
    <Avatar
      src={isIconUrl(icon) ? icon : null}
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
