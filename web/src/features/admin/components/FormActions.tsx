// The foot of every dashboard form dialog: the server's error (announced as an
// alert), then Cancel and the submit button, right-aligned.
import { Alert, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function FormActions({ error, busy, submitLabel, onCancel }: { error: string | null; busy: boolean; submitLabel: string; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('admin.common.cancel')}
        </Button>
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
