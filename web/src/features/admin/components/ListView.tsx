// A list of the dashboard: searchable, sortable by its header buttons, paged,
// with loading, error and empty states. The page asks `load` for one page;
// `load` may ask the server (users, apps, shares) or cut a list it has (groups).
import { Alert, Box, Center, Group, Loader, Pagination, ScrollArea, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import type { ListParams, Page } from '../api';

export interface Column<T> {
  key: string;
  label: string;
  sortable?: boolean;
  render: (row: T) => ReactNode;
  /** Hidden on narrow screens. */
  wide?: boolean;
  /** Shown only from this breakpoint up (a column another one repeats, e.g. the nickname under the e-mail). */
  from?: 'sm' | 'md' | 'lg' | 'xl';
}

export const PAGE_SIZE = 10;

export function ListView<T>({
  queryKey,
  load,
  columns,
  rowKey,
  searchLabel,
  defaultSort,
  emptyText,
  toolbar,
}: {
  queryKey: string;
  load: (p: ListParams) => Promise<Page<T>>;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  searchLabel: string;
  defaultSort: { by: string; direction: 'asc' | 'desc' };
  emptyText: string;
  toolbar?: ReactNode;
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), 250);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState(defaultSort);
  const params: ListParams = { page, page_size: PAGE_SIZE, order_by: sort.by, order_direction: sort.direction, ...(debounced ? { keyword: debounced } : {}) };
  const query = useQuery({ queryKey: ['admin', queryKey, params], queryFn: () => load(params), placeholderData: keepPreviousData });
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / PAGE_SIZE));

  const header = (c: Column<T>) => {
    if (!c.sortable) return c.label;
    const active = sort.by === c.key;
    const Icon = !active ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
    return (
      <UnstyledButton
        onClick={() => {
          setSort(active ? { by: c.key, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { by: c.key, direction: 'asc' });
          setPage(1);
        }}
        aria-label={t('admin.list.sortBy', { column: c.label })}
      >
        <Group gap={4} wrap="nowrap">
          <Text fw={600} size="sm">
            {c.label}
          </Text>
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    );
  };

  return (
    <Box>
      <Group justify="space-between" mb="sm" gap="sm">
        <TextInput
          aria-label={searchLabel}
          placeholder={searchLabel}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: '1 1 16rem', maxWidth: '24rem' }}
        />
        {toolbar}
      </Group>
      {query.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(query.error, t)}
        </Alert>
      ) : query.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('admin.list.loading')} />
        </Center>
      ) : query.data.items.length === 0 ? (
        <Text c="var(--cirrus-muted)" ta="center" py="xl">
          {debounced ? t('admin.list.noMatch', { keyword: debounced }) : emptyText}
        </Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped highlightOnHover verticalSpacing="xs" aria-busy={query.isFetching} miw={520}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key} visibleFrom={c.from ?? (c.wide ? 'sm' : undefined)} style={{ whiteSpace: 'nowrap' }} aria-sort={sort.by === c.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                    {header(c)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.items.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <Table.Td key={c.key} visibleFrom={c.from ?? (c.wide ? 'sm' : undefined)}>
                      {c.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {pages > 1 && (
        <Group justify="flex-end" mt="sm">
          <Pagination total={pages} value={page} onChange={setPage} size="sm" getControlProps={(control) => ({ 'aria-label': t(`admin.list.${control}`) })} getItemProps={(p) => ({ 'aria-label': t('admin.list.page', { page: p }) })} />
        </Group>
      )}
    </Box>
  );
}

/** Sorting, searching and paging done here, for lists the server returns whole (groups). */
export function pageOf<T>(all: T[], p: ListParams, text: (row: T) => string, value: (row: T, key: string) => string | number): Page<T> {
  const k = p.keyword?.toLowerCase();
  const matched = k ? all.filter((r) => text(r).toLowerCase().includes(k)) : [...all];
  if (p.order_by) {
    const dir = p.order_direction === 'desc' ? -1 : 1;
    matched.sort((a, b) => {
      const x = value(a, p.order_by!);
      const y = value(b, p.order_by!);
      return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * dir;
    });
  }
  return { items: matched.slice((p.page - 1) * p.page_size, p.page * p.page_size), total: matched.length };
}
