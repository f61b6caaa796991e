// A lifetime in human units (minutes, hours, days), as seconds to the caller.
import { Group, NumberInput, Select } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DURATION_UNITS, splitSeconds, type DurationUnit } from '../format';

export function DurationInput({
  label,
  value,
  onChange,
  units,
  description,
  error,
  placeholder,
}: {
  label: string;
  value: number | null;
  onChange: (seconds: number | null) => void;
  units: DurationUnit[];
  description?: string;
  error?: string | null;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const initial = value === null ? { value: null, unit: units[units.length - 1]! } : splitSeconds(value);
  const [amount, setAmount] = useState<number | null>(initial.value);
  const [unit, setUnit] = useState<DurationUnit>(units.includes(initial.unit) ? initial.unit : units[0]!);
  const emit = (a: number | null, u: DurationUnit) => onChange(a === null ? null : Math.round(a * DURATION_UNITS[u]));
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <NumberInput
        label={label}
        description={description}
        placeholder={placeholder}
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
        data={units.map((u) => ({ value: u, label: t(`admin.units.${u}`) }))}
        value={unit}
        allowDeselect={false}
        onChange={(u) => {
          const next = (u ?? units[0]) as DurationUnit;
          setUnit(next);
          emit(amount, next);
        }}
        w={110}
      />
    </Group>
  );
}
