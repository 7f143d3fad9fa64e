/**
 * Previous / next for the keyset-paged person list (issue 11): no page numbers, since a
 * cursor cannot jump to page N at depth; "first page" goes back to the start, and a search
 * jumps anywhere. The total says "more than 10,000" when the server capped its count (a search
 * or a date filter with more matches).
 */
import LeftOutlined from '@ant-design/icons/LeftOutlined';
import RightOutlined from '@ant-design/icons/RightOutlined';
import type { PersonList } from '@umbo/contracts/people';
import Button from 'antd/es/button';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';

export interface PersonPagerProps {
  data: PersonList | undefined;
  pageSize: number;
  atStart: boolean;
  onMove: (cursor: string) => void;
  onFirst: () => void;
  onPageSize: (size: number) => void;
}

export function PersonPager({ data, pageSize, atStart, onMove, onFirst, onPageSize }: PersonPagerProps) {
  const { t } = useTranslation();
  const format = useFormat();
  // `count` picks the plural form; the figure is shown with the language's digits and grouping (1,000,000)
  const total = data && t(data.totalCapped ? 'people.person.total_capped' : 'people.person.total', { count: data.total, total: format.number(data.total) });
  return (
    <nav className="person-pager" aria-label={t('people.person.title')}>
      <span className="person-pager__total" data-testid="person-total">
        {total}
      </span>
      <label htmlFor="person-page-size">{t('people.person.page_size')}</label>
      <Select
        id="person-page-size"
        value={pageSize}
        options={[10, 20, 50, 100].map((n) => ({ value: n, label: String(n) }))}
        onChange={onPageSize}
        className="person-pager__size"
      />
      {!atStart && (
        <Button onClick={onFirst} data-testid="person-first">
          {t('people.person.page_first')}
        </Button>
      )}
      <Button
        icon={<LeftOutlined className="person-pager__icon" />}
        disabled={!data?.prevCursor}
        onClick={() => data?.prevCursor && onMove(data.prevCursor)}
        data-testid="person-prev"
      >
        {t('people.person.page_prev')}
      </Button>
      <Button
        icon={<RightOutlined className="person-pager__icon" />}
        iconPlacement="end"
        disabled={!data?.nextCursor}
        onClick={() => data?.nextCursor && onMove(data.nextCursor)}
        data-testid="person-next"
      >
        {t('people.person.page_next')}
      </Button>
    </nav>
  );
}
