/**
 * The backend group of the chosen backend type (SPEC §3): the IT interface fields of
 * ecogloble and default (default adds getUserInfoListByUcUids), bigdata's and ali living's.
 * Rules come from the same contracts schemas the server checks with.
 */
import MinusCircleOutlined from '@ant-design/icons/MinusCircleOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Space from 'antd/es/space';
import { alilivingBackend, backendRegion, bigdataBackend, defaultBackend } from '@umbo/contracts/realm-groups';
import type { RealmBackendView } from '@umbo/contracts/realm-groups';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';

type BackendType = RealmBackendView['type'];

const it = defaultBackend.shape;
const IT_FLAGS = [
  'hasHttps',
  'useOriginID',
  'doAuthNeedCountryCode',
  'loginpathCountryCodeRewrite',
  'loginpathNeedCountryCode',
  'loginpathUseFormPost',
] as const;
const IT_PATHS = ['path', 'getUsersInfo', 'loginpath', 'getVerifyCode', 'loginByVerifyCode', 'userRegistInfo'] as const;

/** A secret field: empty keeps what is stored (the placeholder says whether something is). */
export function SecretInput({ stored, ...rest }: { id: string; stored: boolean; value?: string; onChange?: React.ChangeEventHandler<HTMLInputElement> }) {
  const { t } = useTranslation();
  // value/onChange come from the Form.Item around it.
  return <Input.Password {...rest} autoComplete="new-password" placeholder={stored ? t('domains.secret_kept') : t('domains.secret_none')} />;
}

export function BackendFields({ type, storedSecret }: { type: BackendType; storedSecret: boolean }) {
  const { t } = useTranslation();
  const item = (name: string, label: string, schema: Parameters<typeof rulesFor>[0], control: React.ReactNode) => (
    <Form.Item key={name} name={['backend', name]} label={label} htmlFor={`backend-${name}`} rules={rulesFor(schema, t)}>
      {control}
    </Form.Item>
  );
  const text = (name: string, schema: Parameters<typeof rulesFor>[0]) => item(name, name, schema, <Input id={`backend-${name}`} dir="ltr" />);
  const port = (schema: Parameters<typeof rulesFor>[0]) =>
    item('port', 'port', schema, <InputNumber id="backend-port" min={1} max={65535} style={{ width: '100%' }} />);

  if (type === 'bigdata') {
    const s = bigdataBackend.shape;
    return (
      <>
        <Form.Item name={['backend', 'ishttp']} valuePropName="checked">
          <Checkbox id="backend-ishttp">ishttp</Checkbox>
        </Form.Item>
        {text('host', s.host)}
        {port(s.port)}
        {text('path', s.path)}
        {text('category', s.category)}
      </>
    );
  }
  if (type === 'aliliving') {
    const s = alilivingBackend.shape;
    return (
      <>
        <Form.Item name={['backend', 'enable']} valuePropName="checked">
          <Checkbox id="backend-enable">enable</Checkbox>
        </Form.Item>
        {text('appCloudKey', s.appCloudKey)}
        <Form.Item
          name={['backend', 'appCloudSecret']}
          label="appCloudSecret"
          htmlFor="backend-appCloudSecret"
          rules={storedSecret ? [] : rulesFor(s.appCloudKey, t)}
        >
          <SecretInput id="backend-appCloudSecret" stored={storedSecret} />
        </Form.Item>
        {text('projectRes', s.projectRes)}
        {text('appKey', s.appKey)}
      </>
    );
  }
  return (
    <>
      <Space wrap size={[16, 0]}>
        {IT_FLAGS.map((flag) => (
          <Form.Item key={flag} name={['backend', flag]} valuePropName="checked">
            <Checkbox id={`backend-${flag}`}>{flag}</Checkbox>
          </Form.Item>
        ))}
      </Space>
      <Form.List name={['backend', 'regions']}>
        {(fields, { add, remove }) => (
          <Form.Item label="regions" required>
            {fields.map((field, i) => (
              <Space key={field.key} align="baseline" wrap>
                <Form.Item name={[field.name, 'region']} rules={rulesFor(backendRegion.shape.region, t)}>
                  <Input aria-label={`${t('domains.region')} ${i + 1}`} placeholder={t('domains.region')} dir="ltr" style={{ width: 110 }} />
                </Form.Item>
                <Form.Item name={[field.name, 'host']} rules={rulesFor(backendRegion.shape.host, t)}>
                  <Input aria-label={`${t('domains.host')} ${i + 1}`} placeholder={t('domains.host')} dir="ltr" style={{ width: 200 }} />
                </Form.Item>
                <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('domains.remove_region', { n: i + 1 })} onClick={() => remove(field.name)} />
              </Space>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ region: '', host: '' })}>
              {t('domains.add_region')}
            </Button>
          </Form.Item>
        )}
      </Form.List>
      {text('defaultRegion', it.defaultRegion)}
      {port(it.port)}
      {text('appKey', it.appKey)}
      <Form.Item name={['backend', 'appSercet']} label="appSercet" htmlFor="backend-appSercet" rules={storedSecret ? [] : rulesFor(it.appKey, t)}>
        <SecretInput id="backend-appSercet" stored={storedSecret} />
      </Form.Item>
      {IT_PATHS.map((p) => text(p, it[p]))}
      {type === 'default' && text('getUserInfoListByUcUids', it.getUserInfoListByUcUids)}
    </>
  );
}

/** A fresh group of each type, for the form when the type changes. */
export function emptyBackend(type: BackendType): Record<string, unknown> {
  if (type === 'bigdata') return { ishttp: false, host: '', port: 443, path: '/', category: '' };
  if (type === 'aliliving') return { enable: true, appCloudKey: '', projectRes: '', appKey: '' };
  return {
    hasHttps: true,
    useOriginID: false,
    doAuthNeedCountryCode: false,
    loginpathCountryCodeRewrite: false,
    loginpathNeedCountryCode: false,
    loginpathUseFormPost: false,
    regions: [{ region: '', host: '' }],
    defaultRegion: '',
    port: 443,
    appKey: '',
    path: '/',
    getUsersInfo: '',
    loginpath: '',
    getVerifyCode: '',
    loginByVerifyCode: '',
    userRegistInfo: '',
    ...(type === 'default' ? { getUserInfoListByUcUids: '' } : {}),
  };
}
