/**
 * Which columns a list table shows (the column settings Ant Design Pro users know from
 * ProTable): a checkbox per column in a popover, kept per table in localStorage.
 */
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Popover from 'antd/es/popover';
import Tooltip from 'antd/es/tooltip';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readStored, STORAGE_KEYS, writeStored } from '../lib/storage';

type Stored = Record<string, string[]>;

function readAll(): Stored {
  const value = readStored<unknown>(STORAGE_KEYS.tableColumns);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Stored) : {};
}

/** The hidden column keys of one table: the stored choice, else the columns hidden by default. */
export function useHiddenColumns(tableId: string, hiddenByDefault: readonly string[]): [ReadonlySet<string>, (keys: string[] | undefined) => void] {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => {
    const stored = readAll()[tableId];
    return new Set(Array.isArray(stored) ? stored.filter((k) => typeof k === 'string') : hiddenByDefault);
  });
  /** undefined: back to the defaults (the stored choice is forgotten). */
  const update = useCallback(
    (keys: string[] | undefined) => {
      const all = readAll();
      if (keys) all[tableId] = keys;
      else delete all[tableId];
      writeStored(STORAGE_KEYS.tableColumns, all);
      setHidden(new Set(keys ?? hiddenByDefault));
    },
    [tableId, hiddenByDefault],
  );
  return [hidden, update];
}

export interface SettableColumn {
  key: string;
  title: string;
}

export function ColumnSettings({
  columns,
  hidden,
  onChange,
}: {
  columns: readonly SettableColumn[];
  hidden: ReadonlySet<string>;
  onChange: (hiddenKeys: string[] | undefined) => void;
}) {
  const { t } = useTranslation();
  const shown = columns.filter((c) => !hidden.has(c.key)).map((c) => c.key);
  const content = (
    <div className="column-settings" data-testid="column-settings-panel">
      <Checkbox.Group
        className="column-settings__list"
        value={shown}
        // At least one column stays: a table without columns shows nothing to choose from.
        onChange={(keys) => keys.length > 0 && onChange(columns.filter((c) => !keys.includes(c.key)).map((c) => c.key))}
        options={columns.map((c) => ({ value: c.key, label: c.title }))}
      />
      <Button type="link" size="small" className="column-settings__reset" onClick={() => onChange(undefined)}>
        {t('table.columns_reset')}
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('table.column_settings')} content={content}>
      <Tooltip title={t('table.column_settings')}>
        <Button type="text" icon={<SettingOutlined />} aria-label={t('table.column_settings')} data-testid="column-settings" />
      </Tooltip>
    </Popover>
  );
}
