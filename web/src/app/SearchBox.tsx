// The header's search box: Enter opens /search?q=… (keeping the search page's
// switch and filters when it is already open).
import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, useLocation } from './router';

export function SearchBox() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const current = pathname === '/search' ? (new URLSearchParams(search).get('q') ?? '') : '';
  const [q, setQ] = useState(current);
  useEffect(() => setQ(current), [current]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = q.trim();
    if (!v) return;
    const sp = new URLSearchParams(pathname === '/search' ? search : '');
    sp.set('q', v);
    navigate(`/search?${sp.toString()}`);
  };
  return (
    <form role="search" onSubmit={submit} style={{ flex: 1, maxWidth: 480 }}>
      <TextInput
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        type="search"
        radius="xl"
      />
    </form>
  );
}
