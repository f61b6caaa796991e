// A storage quota in human units (a number and KB/MB/GB/TB), as bytes to the caller.
import { Group, NumberInput, Select } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BYTE_UNITS, splitBytes, toBytes, type ByteUnit } from '../format';

export function QuotaInput({ label, value, onChange, description, allowEmpty, error }: { label: string; value: number | null; onChange: (bytes: number | null) => void; description?: string; allowEmpty?: boolean; error?: string | null }) {
  const { t } = useTranslation();
  const split = value === null || value === 0 ? { value, unit: 'GB' as ByteUnit } : splitBytes(value);
  // Odd byte counts are shown in KB (rounded); quotas are set in whole units anyway.
  const initial = split.unit === 'B' ? { value: Math.round((split.value ?? 0) / 1024), unit: 'KB' as ByteUnit } : split;
  const [amount, setAmount] = useState<number | null>(initial.value);
  const [unit, setUnit] = useState<ByteUnit>(initial.unit);
  const emit = (a: number | null, u: ByteUnit) => onChange(a === null ? (allowEmpty ? null : 0) : toBytes(a, u));
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <NumberInput
        label={label}
        description={description}
        placeholder={allowEmpty ? t('admin.users.quotaFromGroup') : undefined}
        value={amount ?? ''}
        min={0}
        decimalScale={2}
        error={error}
        onChange={(v) => {
          const n = v === '' ? null : Number(v);
          setAmount(n);
          emit(n, unit);
        }}
        style={{ flex: 1 }}
      />
      <Select
        label={t('admin.common.unit')}
        aria-label={t('admin.common.unitOf', { what: label })}
        data={BYTE_UNITS.filter((u) => u !== 'B')}
        value={unit}
        allowDeselect={false}
        onChange={(u) => {
          const next = (u ?? 'GB') as ByteUnit;
          setUnit(next);
          emit(amount, next);
        }}
        w={90}
      />
    </Group>
  );
}
