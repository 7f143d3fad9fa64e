/**
 * Text a user copies into another program (a client secret, a URL, a sample request): shown as
 * it is, left to right, selectable, with a copy button that says when it worked. Where the
 * clipboard is refused (an insecure origin, a denied permission) the text is selected for a
 * manual copy and the user is told so.
 */
import CheckOutlined from '@ant-design/icons/CheckOutlined';
import CopyOutlined from '@ant-design/icons/CopyOutlined';
import Button from 'antd/es/button';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showError } from '../lib/feedback';
import './copy-block.css';

export interface CopyBlockProps {
  text: string;
  /** what the text is, for screen readers and the button's name */
  label: string;
  /** one line (a URL, a secret) or a block (a sample request) */
  multiline?: boolean;
  testId?: string;
}

export function CopyBlock({ text, label, multiline = false, testId }: CopyBlockProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      const el = ref.current;
      if (el) window.getSelection()?.selectAllChildren(el);
      showError(() => t('clients.copy_failed'));
    }
  };

  const Tag = multiline ? 'pre' : 'code';
  return (
    <div className={multiline ? 'copy-block copy-block--multiline' : 'copy-block'} data-testid={testId}>
      <Tag
        ref={ref as never}
        className="copy-block__text"
        dir="ltr"
        // a long block scrolls sideways: it must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={multiline ? 0 : undefined}
        aria-label={multiline ? label : undefined}
        data-testid={testId ? `${testId}-text` : undefined}
      >
        {text}
      </Tag>
      <Button
        className="copy-block__button"
        size="small"
        icon={copied ? <CheckOutlined /> : <CopyOutlined />}
        onClick={() => void copy()}
        aria-label={`${copied ? t('clients.copied') : t('clients.copy')}: ${label}`}
        data-testid={testId ? `${testId}-copy` : undefined}
      >
        {copied ? t('clients.copied') : t('clients.copy')}
      </Button>
    </div>
  );
}
