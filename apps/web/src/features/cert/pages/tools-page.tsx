/**
 * Certificate tools (account/cert/other, tools.<action>): convert format, view certificate,
 * view CSR, download CA. The open tab lives in the address (`tab`).
 */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { showInfo } from '../../../lib/feedback';
import { downloadChain } from '../api/download-chain';
import { ConvertPanel } from '../components/convert-panel';
import { DecodePanel } from '../components/decode-panel';
import '../components/cert.css';

const TABS = ['convert', 'viewCert', 'viewCsr', 'downloadCa'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS = { convert: 'cert.tab_convert', viewCert: 'cert.tab_view_cert', viewCsr: 'cert.tab_view_csr', downloadCa: 'cert.tab_download_ca' } as const;
const TAB_TEST_IDS: Record<Tab, string> = { convert: 'convert', viewCert: 'view-cert', viewCsr: 'view-csr', downloadCa: 'download-ca' };

export default function ToolsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'convert';
  const choose = (key: Tab) =>
    setSearch((prev) => {
      const q = new URLSearchParams(prev);
      q.set('tab', key);
      return q;
    });
  const download = (format: 'pem' | 'der' | 'p7b') => void downloadChain(format).then((name) => showInfo(() => t('cert.downloaded', { name })));

  return (
    <Card title={t('menu.tools')} data-testid="tools-page">
      {/* Four short tabs that wrap on a phone: antd's Tabs fold overflowing tabs into a menu
          inside the tablist, which breaks the tablist's ARIA structure (axe aria-required-children). */}
      <div className="cert-tabs" role="tablist" aria-label={t('menu.tools')}>
        {TABS.map((key) => (
          <Button
            key={key}
            role="tab"
            id={`tools-tab-${key}`}
            aria-selected={tab === key}
            aria-controls="tools-panel"
            type={tab === key ? 'primary' : 'default'}
            onClick={() => choose(key)}
            data-testid={`tab-${TAB_TEST_IDS[key]}`}
          >
            {t(TAB_LABELS[key])}
          </Button>
        ))}
      </div>
      <div role="tabpanel" id="tools-panel" aria-labelledby={`tools-tab-${tab}`} className="cert-section">
        {tab === 'convert' && <ConvertPanel />}
        {tab === 'viewCert' && <DecodePanel kind="certificate" />}
        {tab === 'viewCsr' && <DecodePanel kind="csr" />}
        {tab === 'downloadCa' && (
          <div>
            <p>{t('cert.download_ca_intro')}</p>
            <div className="cert-actions">
              <Button icon={<DownloadOutlined />} onClick={() => download('pem')} data-testid="download-ca-pem">
                {t('cert.download_ca_pem')}
              </Button>
              <Button icon={<DownloadOutlined />} onClick={() => download('der')} data-testid="download-ca-der">
                {t('cert.download_ca_der')}
              </Button>
              <Button icon={<DownloadOutlined />} onClick={() => download('p7b')} data-testid="download-ca-p7b">
                {t('cert.download_ca_p7b')}
              </Button>
            </div>
          </div>
        )}
      </div>
    </Card>
  );
}
