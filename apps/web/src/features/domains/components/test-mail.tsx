/** "Send test mail" of the email config group: it sends through what is stored for the domain. */
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import { testMailBody } from '@umbo/contracts/realms';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkField } from '../../../lib/form-rules';
import { showInfo } from '../../../lib/feedback';
import { useTestMail } from '../api/realm-mutations';

export function TestMail({ realmId }: { realmId: string }) {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string>();
  const send = useTestMail();
  const submit = () => {
    const bad = checkField(testMailBody.shape.to, to, t);
    setProblem(bad);
    if (bad) return;
    send.mutate(
      { realmId, to },
      {
        onSuccess: (r) => showInfo(() => t('domains.test_mail_sent', { via: t(`domains.via_${r.via}` as 'domains.via_realm') })),
        onError: (e) => setProblem(e.message),
      },
    );
  };
  return (
    <div style={{ marginBottom: 24 }}>
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
        {t('domains.test_mail_save_first')}
      </Typography.Text>
      <Space.Compact style={{ width: '100%', maxWidth: 480 }}>
        <Input
          id="test-mail-to"
          aria-label={t('domains.test_mail_to')}
          placeholder={t('domains.test_mail_to')}
          dir="ltr"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          onPressEnter={submit}
        />
        <Button onClick={submit} loading={send.isPending} data-testid="test-mail-send">
          {t('domains.test_mail')}
        </Button>
      </Space.Compact>
      {problem && (
        <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 4 }}>
          {problem}
        </Typography.Text>
      )}
    </div>
  );
}
