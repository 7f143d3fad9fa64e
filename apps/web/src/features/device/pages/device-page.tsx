/**
 * /device (RFC 8628 §3.3): the signed-in user types the code their device shows (or arrives
 * with it from verification_uri_complete), sees which application asks for what, compares
 * the code with the device's screen, and approves or denies it. Anonymous visitors were sent
 * through the sign-in page first by the route guard, with this address as `redirect`.
 */
import Card from 'antd/es/card';
import { formatUserCode, normaliseUserCode } from '@umbo/contracts/device';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDecideDevice } from '../api/decide-device';
import { useDeviceRequest } from '../api/get-device-request';
import { CodeForm } from '../components/code-form';
import { DeviceResult } from '../components/device-result';
import { DeviceReview } from '../components/device-review';
import '../components/device.css';

export default function DevicePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const fromLink = normaliseUserCode(params.get('user_code') ?? '');
  // A code from the link is looked up at once: the user still compares it before deciding.
  const [submitted, setSubmitted] = useState<string | undefined>(fromLink);
  const lookup = useDeviceRequest(submitted);
  const decide = useDecideDevice();

  const restart = () => {
    decide.reset();
    setSubmitted(undefined);
    if (params.has('user_code')) {
      const next = new URLSearchParams(params);
      next.delete('user_code');
      setParams(next, { replace: true });
    }
  };

  let body;
  if (decide.data) body = <DeviceResult result={decide.data} onAnother={restart} />;
  else if (lookup.data && submitted !== undefined)
    body = (
      <DeviceReview
        request={lookup.data}
        deciding={decide.isPending ? (decide.variables?.approve ?? true) : undefined}
        error={decide.error}
        onDecide={(approve) => decide.mutate({ user_code: submitted, approve })}
        onAnother={restart}
      />
    );
  else
    body = (
      <CodeForm
        initial={submitted ? formatUserCode(submitted) : (params.get('user_code') ?? '')}
        loading={lookup.isFetching}
        error={lookup.error}
        onSubmit={(code) => {
          if (code === submitted) void lookup.refetch();
          else setSubmitted(code);
        }}
      />
    );

  return (
    <Card title={t('menu.device')} className="device" data-testid="device-page">
      {body}
    </Card>
  );
}
