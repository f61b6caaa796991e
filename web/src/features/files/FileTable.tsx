// The folder's entries as a list (name, size, modified; sortable) or a grid
// with image thumbnails. Only the rows in view are in the DOM (virtualized),
// so a 100,000-entry folder stays smooth; the next page loads as the end
// comes near. Keyboard: arrows, Shift+arrows, Enter, Delete, F2, Ctrl/Cmd+A.
// Mouse: a click selects, a double click opens. Touch (as Google Drive and
// Nextcloud on a phone): a tap opens, a long press or the row's check box
// selects, and while something is selected a tap adds or removes an item.
import { Badge, Box, Center, Checkbox, Group, Loader, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useElementSize, useMediaQuery, useMergedRef } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconLink, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatSize } from '../../app/format';
import { thumbBlobUrl, type FileItem } from './api';
import { FileIcon, kindOf } from './icons';
import type { Selection } from './useSelection';

export type SortKey = 'name' | 'size' | 'updated_at';
export interface Sort {
  key: SortKey;
  dir: 'asc' | 'desc';
}

// Names in the browser sort like the server's listings: case-insensitively and naturally (file2 before file10).
const naturalNames = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function sortItems(items: FileItem[], sort: Sort): FileItem[] {
  if (sort.key === 'name' && sort.dir === 'asc') return items; // the server's order: folders first, then by name
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    // Team folders stay at the top of My files, as the server lists them.
    if (Boolean(a.team_folder) !== Boolean(b.team_folder)) return a.team_folder ? -1 : 1;
    if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
    let c = 0;
    if (sort.key === 'name') c = naturalNames.compare(a.name, b.name);
    else if (sort.key === 'size') c = a.size - b.size;
    else c = Date.parse(a.updated_at) - Date.parse(b.updated_at);
    return c * sign;
  });
}

export interface FileTableProps {
  items: FileItem[];
  view: 'list' | 'grid';
  selection: Selection;
  sort: Sort;
  onSort(sort: Sort): void;
  onOpen(item: FileItem): void;
  onContextMenu(item: FileItem | null, event: MouseEvent): void;
  onDelete(): void;
  onRename(): void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  label: string;
  /** Extra columns (e.g. the location in search results). */
  locationColumn?: boolean;
  /** A second line under an item's name in the list (a search snippet), or null; such rows are taller. */
  detail?: (item: FileItem) => ReactNode | null;
  /** The person's items that are shared, by path (sharing/useSharedMarks): each gets a mark. */
  shared?: ReadonlyMap<string, { link: boolean; people: boolean }>;
  empty?: ReactNode;
}

const ROW = 44;
const ROW_TALL = 62;
/** How long a finger rests on an item before it is selected (ms), and how far it may drift (px). */
const LONG_PRESS_MS = 500;
const LONG_PRESS_SLOP = 10;
const CARD_W = 150;
const CARD_H = 156;

function Thumb({ item }: { item: FileItem }) {
  const isImage = kindOf(item) === 'image';
  const { data } = useQuery({
    queryKey: ['thumb', item.path, item.updated_at],
    queryFn: ({ signal }) => thumbBlobUrl(item.path, 256, signal),
    enabled: isImage,
    staleTime: Infinity,
    retry: false,
  });
  if (isImage && data) return <img src={data} alt="" loading="lazy" style={{ width: '100%', height: '100%', objectFit: 'cover', borderRadius: 6 }} />;
  return <FileIcon item={item} size={48} />;
}

/** "Team folder" (or "Team folder · view only") beside a team folder's name. */
function TeamBadge({ permission }: { permission: 'read' | 'write' }) {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="light" color="indigo" style={{ flex: 'none', textTransform: 'none' }}>
      {permission === 'read' ? t('files.teamFolderReadOnly') : t('files.teamFolder')}
    </Badge>
  );
}

/**
 * The mark of a shared item: an icon per kind (link, people), named for
 * screen readers (role img + aria-label) and in a tooltip; never colour alone.
 */
function SharedMark({ kinds }: { kinds: { link: boolean; people: boolean } }) {
  const { t } = useTranslation();
  const label = kinds.link && kinds.people ? t('files.sharedBoth') : kinds.link ? t('files.sharedLink') : t('files.sharedPeople');
  return (
    <Tooltip label={label} withArrow openDelay={300}>
      <span role="img" aria-label={label} data-testid="shared-mark" style={{ display: 'inline-flex', gap: 2, flex: 'none', color: 'var(--mantine-color-dimmed)' }}>
        {kinds.people && <IconUsers size={16} aria-hidden="true" />}
        {kinds.link && <IconLink size={16} aria-hidden="true" />}
      </span>
    </Tooltip>
  );
}

function SortHeader({ label, k, sort, onSort, align, before }: { label: string; k: SortKey; sort: Sort; onSort(s: Sort): void; align?: 'right'; before?: ReactNode }) {
  const active = sort.key === k;
  const next: Sort = { key: k, dir: active && sort.dir === 'asc' ? 'desc' : 'asc' };
  return (
    <div role="columnheader" aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'} className={`cirrus-col cirrus-col-${k}`} style={{ textAlign: align, display: before ? 'flex' : undefined, alignItems: 'center', gap: 8 }}>
      {before}
      <UnstyledButton onClick={() => onSort(next)} fz="xs" fw={600} c="dimmed" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        {label}
        {active && (sort.dir === 'asc' ? <IconChevronUp size={12} aria-hidden="true" /> : <IconChevronDown size={12} aria-hidden="true" />)}
      </UnstyledButton>
    </div>
  );
}

export function FileTable(props: FileTableProps) {
  const { items, view, selection, sort, onSort, onOpen, onContextMenu, hasMore, loadingMore, loadMore, label } = props;
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const { ref: sizeRef, width } = useElementSize();
  const mergedRef = useMergedRef(scrollRef, sizeRef);
  const cols = view === 'grid' ? Math.max(1, Math.floor((width || 600) / CARD_W)) : 1;
  const rowCount = Math.ceil(items.length / cols);

  // The grid itself scrolls (it is the focusable element, so keyboard users
  // can scroll it: axe scrollable-region-focusable); its header row sticks
  // to the top, and the rows start below it (scrollMargin).
  const headRef = useRef<HTMLDivElement>(null);
  const [headHeight, setHeadHeight] = useState(0);
  useLayoutEffect(() => setHeadHeight(view === 'list' ? (headRef.current?.offsetHeight ?? 0) : 0), [view]);
  const virtualizer = useVirtualizer({
    count: rowCount,
    scrollMargin: headHeight,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (view === 'grid' ? CARD_H : props.detail && items[i] && props.detail(items[i]) ? ROW_TALL : ROW),
    overscan: 8,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const lastRow = virtualRows[virtualRows.length - 1]?.index ?? 0;

  // Load the next page when the end of what is loaded comes into view.
  useEffect(() => {
    if (hasMore && !loadingMore && lastRow >= rowCount - 20) loadMore();
  }, [hasMore, loadingMore, lastRow, rowCount, loadMore]);

  // Rows of different heights (details) are measured again when the items change.
  const detailed = props.detail ? items : null;
  useEffect(() => {
    virtualizer.measure();
  }, [view, virtualizer, detailed]);

  const focusRow = (i: number) => {
    selection.setFocus(i);
    virtualizer.scrollToIndex(Math.floor(i / cols), { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (items.length === 0) return;
    const step = view === 'grid' ? { ArrowDown: cols, ArrowUp: -cols, ArrowRight: 1, ArrowLeft: -1 } : { ArrowDown: 1, ArrowUp: -1 };
    const delta = (step as Record<string, number>)[e.key];
    const mod = e.ctrlKey || e.metaKey;
    if (delta !== undefined) {
      e.preventDefault();
      const i = Math.max(0, Math.min(items.length - 1, selection.focus + delta));
      if (e.shiftKey) selection.extendTo(i);
      else selection.only(i);
      focusRow(i);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const i = e.key === 'Home' ? 0 : items.length - 1;
      selection.only(i);
      focusRow(i);
    } else if (e.key === 'Enter') {
      const item = items[selection.focus];
      if (item) {
        e.preventDefault();
        onOpen(item);
      }
    } else if (e.key === 'Delete') {
      e.preventDefault();
      if (selection.selected.size === 0 && items[selection.focus]) selection.only(selection.focus);
      props.onDelete();
    } else if (e.key === 'F2') {
      e.preventDefault();
      if (selection.selected.size === 0) selection.only(selection.focus);
      props.onRename();
    } else if (mod && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      selection.selectAll();
    } else if (e.key === 'Escape') selection.clear();
  };

  // Touch: which kind of pointer pressed last, and a long press in progress.
  const touchScreen = useMediaQuery('(pointer: coarse)', false, { getInitialValueInEffect: false });
  const lastPointer = useRef<string>('mouse');
  const press = useRef<{ timer: number; x: number; y: number; fired: boolean } | null>(null);
  const endPress = () => {
    if (press.current) window.clearTimeout(press.current.timer);
  };
  useEffect(() => endPress, []);
  const pointerDown = (index: number, e: PointerEvent) => {
    lastPointer.current = e.pointerType;
    endPress();
    press.current = null;
    if (e.pointerType !== 'touch') return;
    const state = { x: e.clientX, y: e.clientY, fired: false, timer: 0 };
    state.timer = window.setTimeout(() => {
      state.fired = true;
      selection.toggle(index);
      navigator.vibrate?.(10);
    }, LONG_PRESS_MS);
    press.current = state;
  };
  const pointerMove = (e: PointerEvent) => {
    const p = press.current;
    if (p && !p.fired && Math.hypot(e.clientX - p.x, e.clientY - p.y) > LONG_PRESS_SLOP) endPress();
  };
  const click = (index: number, e: MouseEvent) => {
    if (lastPointer.current === 'touch') {
      // The click that ends a long press has done its work already.
      if (press.current?.fired) return;
      endPress();
      if (selection.selected.size > 0) selection.toggle(index);
      else onOpen(items[index]!);
      return;
    }
    selection.click(index, { ctrl: e.ctrlKey || e.metaKey, shift: e.shiftKey });
  };
  const context = (index: number, e: MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
    // A long press on a touch screen selects (above) rather than opening a menu.
    if (lastPointer.current === 'touch') return;
    const item = items[index]!;
    if (!selection.selected.has(item.id)) selection.only(index);
    onContextMenu(item, e);
  };
  const focusedId = items[selection.focus] ? `row-${items[selection.focus]!.id}` : undefined;

  const renderItem = (item: FileItem, index: number) => {
    const detail = view === 'list' ? (props.detail?.(item) ?? null) : null;
    const selected = selection.selected.has(item.id);
    const focused = index === selection.focus;
    const common = {
      id: `row-${item.id}`,
      'aria-selected': selected,
      'data-path': item.path,
      onClick: (e: MouseEvent) => click(index, e),
      onDoubleClick: () => lastPointer.current !== 'touch' && onOpen(item),
      onPointerDown: (e: PointerEvent) => pointerDown(index, e),
      onPointerMove: pointerMove,
      onPointerUp: endPress,
      onPointerCancel: endPress,
      onContextMenu: (e: MouseEvent) => context(index, e),
      className: `cirrus-item${selected ? ' is-selected' : ''}${focused ? ' is-focused' : ''}`,
    };
    const check = touchScreen && (
      // A 36×40 target around the box; its clicks stay off the row (which would open the item).
      <label className="cirrus-check" onClick={(e) => e.stopPropagation()} onPointerDown={(e) => e.stopPropagation()}>
        <Checkbox size="sm" checked={selected} onChange={() => selection.toggle(index)} aria-label={t('files.selectItem', { name: item.name })} />
      </label>
    );
    if (view === 'grid') {
      return (
        <div key={item.id} role="gridcell" {...common} aria-rowindex={undefined} className={common.className + ' cirrus-card'} style={{ width: CARD_W - 10 }}>
          {check}
          <Center h={96} w="100%">
            <Thumb item={item} />
          </Center>
          <Text size="sm" ta="center" lineClamp={2} style={{ wordBreak: 'break-word' }} mt={4}>
            {item.name}
          </Text>
          {item.team_folder && <TeamBadge permission={item.team_folder.permission} />}
          {props.shared?.get(item.path) && <SharedMark kinds={props.shared.get(item.path)!} />}
        </div>
      );
    }
    return (
      <div key={item.id} role="row" aria-rowindex={index + 2} {...common} className={common.className + (detail ? ' cirrus-row cirrus-row-tall' : ' cirrus-row')}>
        <div role="gridcell" className="cirrus-col cirrus-col-name">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            {check}
            <FileIcon item={item} />
            <Text size="sm" truncate title={item.name}>
              {item.name}
            </Text>
            {item.team_folder && <TeamBadge permission={item.team_folder.permission} />}
            {props.shared?.get(item.path) && <SharedMark kinds={props.shared.get(item.path)!} />}
          </Group>
          {detail && <div className="cirrus-detail">{detail}</div>}
        </div>
        {props.locationColumn && (
          <div role="gridcell" className="cirrus-col cirrus-col-location">
            <Text size="xs" c="dimmed" truncate>
              {item.path.slice(0, item.path.length - item.name.length - 1) || '/'}
            </Text>
          </div>
        )}
        <div role="gridcell" className="cirrus-col cirrus-col-size">
          <Text size="sm" c="dimmed">
            {item.type === 'folder' ? '—' : formatSize(item.size)}
          </Text>
        </div>
        <div role="gridcell" className="cirrus-col cirrus-col-updated_at">
          <Text size="sm" c="dimmed">
            {formatDate(item.updated_at)}
          </Text>
        </div>
      </div>
    );
  };

  if (items.length === 0 && props.empty) return <>{props.empty}</>;
  return (
    <Box
      ref={mergedRef}
      role="grid"
      aria-label={label}
      aria-multiselectable="true"
      aria-rowcount={view === 'list' ? items.length + 1 : undefined}
      aria-activedescendant={focusedId}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => {
        e.preventDefault();
        onContextMenu(null, e);
      }}
      className="cirrus-grid"
    >
      {view === 'list' && (
        <div role="rowgroup" ref={headRef} className="cirrus-head-group">
          <div role="row" aria-rowindex={1} className="cirrus-row cirrus-head">
            <SortHeader
              label={t('common.name')}
              k="name"
              sort={sort}
              onSort={onSort}
              before={
                touchScreen && (
                  <label className="cirrus-check">
                    <Checkbox
                      size="sm"
                      checked={items.length > 0 && selection.selected.size === items.length}
                      indeterminate={selection.selected.size > 0 && selection.selected.size < items.length}
                      onChange={() => (selection.selected.size === items.length ? selection.clear() : selection.selectAll())}
                      aria-label={t('files.selectAll')}
                    />
                  </label>
                )
              }
            />
            {props.locationColumn && (
              <div role="columnheader" className="cirrus-col cirrus-col-location">
                <Text fz="xs" fw={600} c="dimmed">
                  {t('search.location')}
                </Text>
              </div>
            )}
            <SortHeader label={t('common.size')} k="size" sort={sort} onSort={onSort} />
            <SortHeader label={t('common.modified')} k="updated_at" sort={sort} onSort={onSort} />
          </div>
        </div>
      )}
      <div className="cirrus-scroll" role="rowgroup" onClick={(e) => e.target === e.currentTarget && selection.clear()}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          {virtualRows.map((vr) => {
            const start = vr.index * cols;
            const rowItems = items.slice(start, start + cols);
            return (
              <div
                key={vr.key}
                style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: vr.size, transform: `translateY(${vr.start - headHeight}px)` }}
                {...(view === 'grid' ? { role: 'row', 'aria-rowindex': vr.index + 1, className: 'cirrus-card-row' } : { role: 'presentation' })}
              >
                {rowItems.map((item, j) => renderItem(item, start + j))}
              </div>
            );
          })}
        </div>
        {loadingMore && (
          <Center py="sm">
            <Loader size="sm" aria-label={t('common.loading')} />
          </Center>
        )}
      </div>
    </Box>
  );
}
