/**
 * The multi-tab bar (SPEC §2): one tab per visited screen; close current, right, left and all
 * from the bar's menu or a tab's context menu, with SPEC's messages when nothing can close.
 */
import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import type { ConsoleRoute } from '@umbo/contracts/routes';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Tabs from 'antd/es/tabs';
import type { MenuProps } from 'antd/es/menu';
import { useEffect, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { showInfo } from '../../lib/feedback';
import { closeTabs, nextActive, openTab, type Tab, type TabCommand } from './tabs-model';

const COMMANDS: { key: TabCommand; label: 'shell.close_current' | 'shell.close_right' | 'shell.close_left' | 'shell.close_all' }[] = [
  { key: 'closeCurrent', label: 'shell.close_current' },
  { key: 'closeRight', label: 'shell.close_right' },
  { key: 'closeLeft', label: 'shell.close_left' },
  { key: 'closeAll', label: 'shell.close_all' },
];

/**
 * The open tabs are the shell's state, not the bar's: switching between side and top menu
 * remounts the bar, and must not close tabs (issue 10).
 */
export function MultiTab({ route, tabs, setTabs }: { route: ConsoleRoute | undefined; tabs: Tab[]; setTabs: Dispatch<SetStateAction<Tab[]>> }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const active = location.pathname;

  useEffect(() => {
    if (route) setTabs((current) => openTab(current, { key: location.pathname, fullPath: `${location.pathname}${location.search}`, title: route.title }));
  }, [route, location.pathname, location.search, setTabs]);

  const run = (command: TabCommand, target: string) => {
    const result = closeTabs(tabs, target, command);
    const message = result.message;
    if (message) {
      showInfo((say) => say(`shell.${message}`));
      return;
    }
    setTabs(result.tabs);
    const next = nextActive(tabs, result.tabs, active, target);
    if (next && next.key !== active) navigate(next.fullPath);
  };

  const menuFor = (target: string): MenuProps => ({
    items: COMMANDS.map((c) => ({ key: c.key, label: t(c.label) })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      run(key as TabCommand, target);
    },
  });

  // A tab list may hold only tabs (WCAG 4.1.2, axe aria-required-children): the close cross
  // is a pointer shortcut inside the tab, hidden from assistive technology, and the tab
  // actions menu — the keyboard's way to close — sits beside the list, not in it.
  return (
    <div className="shell__tabs" data-testid="multi-tab">
      <Tabs
        type="card"
        size="small"
        activeKey={active}
        onChange={(key) => {
          const tab = tabs.find((x) => x.key === key);
          if (tab) navigate(tab.fullPath);
        }}
        items={tabs.map((tab) => ({
          key: tab.key,
          label: (
            <Dropdown trigger={['contextMenu']} menu={menuFor(tab.key)}>
              <span className="shell__tab">
                <span data-tab-key={tab.key}>{t(`menu.${tab.title}`)}</span>
                <CloseOutlined
                  className="shell__tab-close"
                  aria-hidden="true"
                  title={t('shell.close_tab')}
                  data-testid="tab-close"
                  onClick={(e) => {
                    e.stopPropagation();
                    run('closeCurrent', tab.key);
                  }}
                />
              </span>
            </Dropdown>
          ),
        }))}
      />
      <Dropdown trigger={['click']} menu={menuFor(active)}>
        <Button type="text" size="small" icon={<DownOutlined />} aria-label={t('shell.tab_actions')} data-testid="tab-actions" />
      </Dropdown>
    </div>
  );
}
