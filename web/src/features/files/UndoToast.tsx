// A toast that says what just happened and offers to undo it (Google Drive's
// "Undo" after a move or a delete). The button works once; the toast then
// closes and the undo's own outcome is reported.
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';

export function showUndoToast(message: string, undoLabel: string, onUndo: () => Promise<void> | void): void {
  let id = '';
  let used = false;
  id = notifications.show({
    color: 'teal',
    autoClose: 10_000,
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{message}</Text>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => {
            if (used) return;
            used = true;
            notifications.hide(id);
            void onUndo();
          }}
        >
          {undoLabel}
        </Button>
      </Group>
    ),
  });
}
