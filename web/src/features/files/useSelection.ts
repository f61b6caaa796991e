// Selection of a list: click, Ctrl/Cmd-click (toggle), Shift-click (range from
// the anchor), select all; a focused row for the keyboard.
import { useCallback, useMemo, useState } from 'react';

export interface Selection {
  selected: ReadonlySet<string>;
  focus: number;
  setFocus(i: number): void;
  click(index: number, mods: { ctrl: boolean; shift: boolean }): void;
  selectAll(): void;
  clear(): void;
  only(index: number): void;
  extendTo(index: number): void;
  /** Adds or removes one item (a checkbox, a long press, a tap while selecting on touch). */
  toggle(index: number): void;
}

export function useSelection(ids: readonly string[]): Selection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState(0);
  const [focus, setFocusState] = useState(0);

  // Forget ids that left the list (deleted, moved, another folder).
  const live = useMemo(() => {
    const present = new Set(ids);
    const kept = [...selected].filter((id) => present.has(id));
    return kept.length === selected.size ? selected : new Set(kept);
  }, [ids, selected]);

  const range = useCallback((a: number, b: number) => new Set(ids.slice(Math.min(a, b), Math.max(a, b) + 1)), [ids]);
  const setFocus = useCallback((i: number) => setFocusState(Math.max(0, Math.min(ids.length - 1, i))), [ids.length]);

  return {
    selected: live,
    focus: Math.min(focus, Math.max(0, ids.length - 1)),
    setFocus,
    click(index, { ctrl, shift }) {
      const id = ids[index];
      if (id === undefined) return;
      setFocusState(index);
      if (shift) {
        setSelected(ctrl ? new Set([...live, ...range(anchor, index)]) : range(anchor, index));
        return;
      }
      setAnchor(index);
      if (ctrl) {
        const next = new Set(live);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        setSelected(next);
      } else setSelected(new Set([id]));
    },
    selectAll: () => setSelected(new Set(ids)),
    clear: () => setSelected(new Set()),
    only(index) {
      const id = ids[index];
      setFocusState(index);
      setAnchor(index);
      setSelected(id === undefined ? new Set() : new Set([id]));
    },
    extendTo(index) {
      setFocusState(index);
      setSelected(range(anchor, index));
    },
    toggle(index) {
      const id = ids[index];
      if (id === undefined) return;
      setFocusState(index);
      setAnchor(index);
      const next = new Set(live);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setSelected(next);
    },
  };
}
