// A controlled confirmation for a destructive action, stating its consequence.
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';

export function ConfirmDialog({
  opened,
  onClose,
  title,
  consequence,
  confirmLabel,
  onConfirm,
  typeToConfirm,
  color = 'red',
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  consequence: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  typeToConfirm?: string;
  color?: string;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setTyped('');
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack>
        <Text size="sm">{consequence}</Text>
        {typeToConfirm !== undefined && (
          <TextInput label={t('admin.confirm.typeToConfirm', { word: typeToConfirm })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('admin.common.cancel')}
          </Button>
          <Button color={color} loading={busy} disabled={typeToConfirm !== undefined && typed.trim() !== typeToConfirm} onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
