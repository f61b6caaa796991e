// A right-click menu at the pointer, with the same actions as the toolbar.
import { Menu } from '@mantine/core';
import type { ReactNode } from 'react';

export interface MenuAction {
  key: string;
  label: string;
  icon: ReactNode;
  onClick(): void;
  danger?: boolean;
  divider?: boolean;
}

export function ContextMenu({ at, actions, onClose }: { at: { x: number; y: number } | null; actions: MenuAction[]; onClose(): void }) {
  return (
    <Menu opened={at !== null} onChange={(o) => !o && onClose()} position="bottom-start" offset={2} withinPortal shadow="md" width={200}>
      <Menu.Target>
        <div style={{ position: 'fixed', left: at?.x ?? 0, top: at?.y ?? 0, width: 1, height: 1 }} aria-hidden="true" />
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((a) => [
          a.divider ? <Menu.Divider key={a.key + '-d'} /> : null,
          <Menu.Item key={a.key} leftSection={a.icon} color={a.danger ? 'red' : undefined} onClick={a.onClick}>
            {a.label}
          </Menu.Item>,
        ])}
      </Menu.Dropdown>
    </Menu>
  );
}
