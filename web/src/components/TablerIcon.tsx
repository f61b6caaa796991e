// Draws any icon of the Tabler set by its name (`cloud-upload`,
// `brand-github-filled`), the names an OAuth app's icon may take (the server
// accepts exactly these: server/src/oauth/icon-names.ts). The drawing data is
// loaded on first use from a small chunk of the set (web/build/tabler-buckets.ts):
// a page that shows one named icon loads about 1/64 of the set, and pages that
// show none load nothing of it.
import { createReactComponent } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { loadIconNodes } from 'virtual:tabler-icons';

type TablerIconType = ReturnType<typeof createReactComponent>;
type IconNode = Parameters<typeof createReactComponent>[3];

const components = new Map<string, TablerIconType | null>();

const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/** The icon's component, or null when the set has no such name. */
export async function loadTablerIcon(name: string): Promise<TablerIconType | null> {
  if (components.has(name)) return components.get(name)!;
  const filled = name.endsWith('-filled');
  const base = filled ? name.slice(0, -'-filled'.length) : name;
  const node = await loadIconNodes(filled ? 'filled' : 'outline', base);
  const component = node ? createReactComponent(filled ? 'filled' : 'outline', name, pascal(name), node as IconNode) : null;
  components.set(name, component);
  return component;
}

/** The named icon once loaded; `fallback` while loading and for unknown names. */
export function TablerIcon({ name, size = 24, fallback = null, label }: { name: string; size?: number; fallback?: ReactNode; label?: string }) {
  const [state, setState] = useState<{ name: string; icon: TablerIconType | null } | null>(() =>
    components.has(name) ? { name, icon: components.get(name)! } : null,
  );
  useEffect(() => {
    let current = true;
    loadTablerIcon(name).then(
      (icon) => current && setState({ name, icon }),
      () => current && setState({ name, icon: null }),
    );
    return () => {
      current = false;
    };
  }, [name]);
  const Icon = state?.name === name ? state.icon : null;
  if (!Icon) return <>{fallback}</>;
  return <Icon size={size} stroke={1.7} role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true} />;
}
