/**
 * The multi-tab bar's rules (SPEC §2): close current, right, left, all. "Close all" keeps the
 * tab it was invoked on, and the last tab can never be closed.
 */
import type { Phrases } from '@umbo/contracts/phrases/types';

export interface Tab {
  /** The route's pathname: one tab per screen. */
  key: string;
  /** Pathname with query, restored when the tab is activated again. */
  fullPath: string;
  title: keyof Phrases['menu'];
}

export type TabCommand = 'closeCurrent' | 'closeRight' | 'closeLeft' | 'closeAll';
export type TabMessage = 'last_tab' | 'no_left' | 'no_right';

export function openTab(tabs: readonly Tab[], tab: Tab): Tab[] {
  const i = tabs.findIndex((t) => t.key === tab.key);
  if (i < 0) return [...tabs, tab];
  if (tabs[i]!.fullPath === tab.fullPath && tabs[i]!.title === tab.title) return tabs as Tab[];
  return tabs.map((t, j) => (j === i ? tab : t));
}

export function closeTabs(tabs: readonly Tab[], target: string, command: TabCommand): { tabs: Tab[]; message?: TabMessage } {
  const i = tabs.findIndex((t) => t.key === target);
  const all = [...tabs];
  if (i < 0) return { tabs: all };
  switch (command) {
    case 'closeCurrent':
      return tabs.length <= 1 ? { tabs: all, message: 'last_tab' } : { tabs: all.filter((t) => t.key !== target) };
    case 'closeRight':
      return i === tabs.length - 1 ? { tabs: all, message: 'no_right' } : { tabs: all.slice(0, i + 1) };
    case 'closeLeft':
      return i === 0 ? { tabs: all, message: 'no_left' } : { tabs: all.slice(i) };
    case 'closeAll':
      return tabs.length <= 1 ? { tabs: all, message: 'last_tab' } : { tabs: [tabs[i]!] };
  }
}

/** Which tab to show after closing: the active one if it survived, else the target, else a neighbour. */
export function nextActive(before: readonly Tab[], after: readonly Tab[], active: string, target: string): Tab | undefined {
  const keep = after.find((t) => t.key === active) ?? after.find((t) => t.key === target);
  if (keep) return keep;
  const was = before.findIndex((t) => t.key === active);
  return after[Math.min(Math.max(was, 0), after.length - 1)];
}
