/** Previous / next for a keyset-paged list (no page numbers: a cursor cannot jump to page N), and the total. */
import Button from 'antd/es/button';
import LeftOutlined from '@ant-design/icons/LeftOutlined';
import RightOutlined from '@ant-design/icons/RightOutlined';
import { useTranslation } from 'react-i18next';

export interface ServicePagerProps {
  total: number | undefined;
  prevCursor: string | null | undefined;
  nextCursor: string | null | undefined;
  onMove: (cursor: string, direction: 'next' | 'prev') => void;
}

export function ServicePager({ total, prevCursor, nextCursor, onMove }: ServicePagerProps) {
  const { t } = useTranslation();
  return (
    <nav className="service-pager" aria-label={t('people.service.title')}>
      <span className="service-pager__total" data-testid="service-total">
        {total === undefined ? '' : t('people.service.total', { count: total })}
      </span>
      <Button icon={<LeftOutlined className="service-pager__icon" />} disabled={!prevCursor} onClick={() => prevCursor && onMove(prevCursor, 'prev')}>
        {t('people.service.prev')}
      </Button>
      <Button
        icon={<RightOutlined className="service-pager__icon" />}
        iconPlacement="end"
        disabled={!nextCursor}
        onClick={() => nextCursor && onMove(nextCursor, 'next')}
      >
        {t('people.service.next')}
      </Button>
    </nav>
  );
}
