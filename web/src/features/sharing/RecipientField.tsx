// The share dialog's recipient field: a combobox (WAI-ARIA 1.2 "combobox with
// listbox popup") that suggests people and groups while typing, from
// GET /file/access/suggest (which lists only whom the site lets one share
// with). Arrow keys move through the options, Enter picks one, Escape closes.
// A typed e-mail or UID that matches no option is still sent as it is.
import { Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { IconUser, IconUsersGroup } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { suggestRecipients } from './api';

/** What the field names: a person (by e-mail or UID), a group (by id), or text typed as it is. */
export type Recipient = { kind: 'user'; login: string; label: string } | { kind: 'group'; id: number; label: string };

/** Waits this long after the last key before asking the server. */
const DEBOUNCE_MS = 200;

export function RecipientField({ value, onChange, label, description }: { value: string; onChange(text: string, picked: Recipient | null): void; label: string; description: string }) {
  const { t } = useTranslation();
  const store = useCombobox({ onDropdownClose: () => store.resetSelectedOption() });
  const [query, setQuery] = useState('');
  const listId = useId();
  useEffect(() => {
    const timer = setTimeout(() => setQuery(value.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  const suggestions = useQuery({ queryKey: ['recipient-suggest', query], queryFn: () => suggestRecipients(query), enabled: query.length > 0, staleTime: 30_000, retry: false });
  const options: Recipient[] = [
    ...(suggestions.data?.people ?? []).map((p): Recipient => ({ kind: 'user', login: p.email, label: p.nickname ? `${p.nickname} <${p.email}>` : p.email })),
    ...(suggestions.data?.groups ?? []).map((g): Recipient => ({ kind: 'group', id: g.id, label: t('sharing.groupNamed', { name: g.name }) })),
  ];
  const keyOf = (r: Recipient) => (r.kind === 'user' ? `user:${r.login}` : `group:${r.id}`);
  useEffect(() => {
    if (options.length > 0) store.selectFirstOption();
    // The first option is highlighted when a new answer arrives, so Enter picks it.
  }, [suggestions.data]);

  return (
    // As wide as the field and aligned with it: sized by its content, the list ran past a phone's right edge.
    <Combobox
      store={store}
      width="target"
      position="bottom-start"
      onOptionSubmit={(key) => {
        const picked = options.find((o) => keyOf(o) === key);
        if (picked) onChange(picked.label, picked);
        store.closeDropdown();
      }}
    >
      {/* withExpandedAttribute: role="combobox" and aria-expanded on the input (Mantine leaves them off by default). */}
      <Combobox.Target withExpandedAttribute>
        <TextInput
          style={{ flex: '1 1 180px' }}
          label={label}
          description={description}
          placeholder={t('sharing.recipientPlaceholder')}
          value={value}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            onChange(e.currentTarget.value, null);
            store.openDropdown();
          }}
          onFocus={() => store.openDropdown()}
          onBlur={() => store.closeDropdown()}
          rightSection={suggestions.isFetching ? <Loader size={14} aria-label={t('common.loading')} /> : null}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={query.length === 0 || (options.length === 0 && !suggestions.isFetched)}>
        {/* A long list scrolls inside the dropdown rather than running off a phone's screen. */}
        <Combobox.Options id={listId} aria-label={t('sharing.suggestions')} mah={240} style={{ overflowY: 'auto' }}>
          {options.length === 0 ? (
            <Combobox.Empty>{suggestions.isFetching ? t('common.loading') : t('sharing.noSuggestions')}</Combobox.Empty>
          ) : (
            options.map((o) => (
              <Combobox.Option key={keyOf(o)} value={keyOf(o)}>
                <Group gap={8} wrap="nowrap">
                  {o.kind === 'group' ? <IconUsersGroup size={16} aria-hidden="true" /> : <IconUser size={16} aria-hidden="true" />}
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {o.label}
                  </Text>
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
