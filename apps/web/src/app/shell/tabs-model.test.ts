import { describe, expect, it } from 'vitest';
import { closeTabs, nextActive, openTab, type Tab } from './tabs-model';

const tab = (key: string): Tab => ({ key, fullPath: `${key}?q=1`, title: 'center' });
const keys = (tabs: Tab[]) => tabs.map((t) => t.key);
const abc = [tab('a'), tab('b'), tab('c')];

describe('multi-tab rules (SPEC §2)', () => {
  it('opens each screen once and remembers its latest query', () => {
    let tabs = openTab([], tab('a'));
    tabs = openTab(tabs, tab('b'));
    tabs = openTab(tabs, { ...tab('a'), fullPath: 'a?q=2' });
    expect(keys(tabs)).toEqual(['a', 'b']);
    expect(tabs[0]!.fullPath).toBe('a?q=2');
  });

  it('closes the current tab, but never the last one', () => {
    expect(keys(closeTabs(abc, 'b', 'closeCurrent').tabs)).toEqual(['a', 'c']);
    expect(closeTabs([tab('a')], 'a', 'closeCurrent')).toEqual({ tabs: [tab('a')], message: 'last_tab' });
  });

  it('closes to the right, or says there is nothing there', () => {
    expect(keys(closeTabs(abc, 'a', 'closeRight').tabs)).toEqual(['a']);
    expect(closeTabs(abc, 'c', 'closeRight').message).toBe('no_right');
  });

  it('closes to the left, or says there is nothing there', () => {
    expect(keys(closeTabs(abc, 'c', 'closeLeft').tabs)).toEqual(['c']);
    expect(closeTabs(abc, 'a', 'closeLeft').message).toBe('no_left');
  });

  it('closes all but the tab it acts on', () => {
    expect(keys(closeTabs(abc, 'b', 'closeAll').tabs)).toEqual(['b']);
    expect(closeTabs([tab('a')], 'a', 'closeAll').message).toBe('last_tab');
  });

  it('shows the surviving active tab, else the target, else a neighbour', () => {
    expect(nextActive(abc, [tab('a'), tab('c')], 'c', 'b')!.key).toBe('c');
    expect(nextActive(abc, [tab('a')], 'c', 'a')!.key).toBe('a');
    expect(nextActive(abc, [tab('a'), tab('c')], 'b', 'b')!.key).toBe('c');
  });
});
