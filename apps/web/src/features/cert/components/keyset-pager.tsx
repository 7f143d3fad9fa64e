/**
 * First / previous / next for keyset-paged lists (answers carry `next` only; a cursor cannot
 * jump to page N). The cursor of the page shown lives in the address (`cursor`); the cursors
 * of the pages before it are kept while the page is open, so "previous" works without the
 * server paging backwards.
 */
import LeftOutlined from '@ant-design/icons/LeftOutlined';
import RightOutlined from '@ant-design/icons/RightOutlined';
import VerticalRightOutlined from '@ant-design/icons/VerticalRightOutlined';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface KeysetState {
  cursor: string | undefined;
  next: string | null | undefined;
  first: () => void;
  prev: (() => void) | undefined;
  forward: () => void;
}

/** `cursor` from the address and a setter writing it back. */
export function useKeyset(cursor: string | undefined, next: string | null | undefined, setCursor: (c: string | undefined) => void): KeysetState {
  const [stack, setStack] = useState<(string | undefined)[]>([]);
  return {
    cursor,
    next,
    first: () => {
      setStack([]);
      setCursor(undefined);
    },
    prev:
      cursor === undefined
        ? undefined
        : () => {
            const before = stack[stack.length - 1];
            setStack(stack.slice(0, -1));
            setCursor(before);
          },
    forward: () => {
      if (!next) return;
      setStack([...stack, cursor]);
      setCursor(next);
    },
  };
}

export function KeysetPager({ state, testId = 'keyset' }: { state: KeysetState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <nav className="cert-pager" aria-label={t('cert.paging')}>
      <Button
        icon={<VerticalRightOutlined className="cert-pager__icon" />}
        disabled={state.cursor === undefined}
        onClick={state.first}
        data-testid={`${testId}-first`}
      >
        {t('cert.first_page')}
      </Button>
      <Button icon={<LeftOutlined className="cert-pager__icon" />} disabled={!state.prev} onClick={state.prev} data-testid={`${testId}-prev`}>
        {t('cert.prev_page')}
      </Button>
      <Button
        icon={<RightOutlined className="cert-pager__icon" />}
        iconPlacement="end"
        disabled={!state.next}
        onClick={state.forward}
        data-testid={`${testId}-next`}
      >
        {t('cert.next_page')}
      </Button>
    </nav>
  );
}
