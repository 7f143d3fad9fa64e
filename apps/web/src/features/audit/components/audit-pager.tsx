/** Newest / newer / older for the keyset-paged trail (a cursor cannot jump to page N). */
import LeftOutlined from '@ant-design/icons/LeftOutlined';
import RightOutlined from '@ant-design/icons/RightOutlined';
import VerticalRightOutlined from '@ant-design/icons/VerticalRightOutlined';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';

export interface AuditPagerProps {
  prevCursor: string | null | undefined;
  nextCursor: string | null | undefined;
  /** a cursor is in use: "newest" goes back to the start */
  paged: boolean;
  onMove: (cursor: string | undefined, direction: 'next' | 'prev') => void;
}

export function AuditPager({ prevCursor, nextCursor, paged, onMove }: AuditPagerProps) {
  const { t } = useTranslation();
  return (
    <nav className="audit-pager" aria-label={t('audit.paging')}>
      <Button
        icon={<VerticalRightOutlined className="audit-pager__icon" />}
        disabled={!paged}
        onClick={() => onMove(undefined, 'next')}
        data-testid="audit-newest"
      >
        {t('audit.newest')}
      </Button>
      <Button
        icon={<LeftOutlined className="audit-pager__icon" />}
        disabled={!prevCursor}
        onClick={() => prevCursor && onMove(prevCursor, 'prev')}
        data-testid="audit-newer"
      >
        {t('audit.newer')}
      </Button>
      <Button
        icon={<RightOutlined className="audit-pager__icon" />}
        iconPlacement="end"
        disabled={!nextCursor}
        onClick={() => nextCursor && onMove(nextCursor, 'next')}
        data-testid="audit-older"
      >
        {t('audit.older')}
      </Button>
    </nav>
  );
}
