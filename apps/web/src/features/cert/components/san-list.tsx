/** The subject alternative names of a certificate to issue: kind + value rows, each checked by SPEC §5's rule for its kind. */
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { PKI_LIMITS, SAN_TYPES, type SanType } from '@umbo/contracts/pki';
import { useTranslation } from 'react-i18next';
import { sanProblem } from './name-rules';

export function SanList({ defaultType }: { defaultType: SanType }) {
  const { t } = useTranslation();
  return (
    <Form.List name="san">
      {(fields, { add, remove }) => (
        <div className="cert-san" role="group" aria-labelledby="cert-san-title" data-testid="san-list">
          <div id="cert-san-title" className="cert-san__title">
            {t('cert.san')}
          </div>
          {fields.map((field, i) => (
            <div key={field.key} className="cert-san-row" data-testid="san-row">
              <Form.Item name={[field.name, 'type']} noStyle>
                <Select
                  className="cert-san-row__type"
                  aria-label={`${t('cert.san_type')} ${i + 1}`}
                  options={SAN_TYPES.map((s) => ({ value: s, label: t(`cert.san_type_${s}`) }))}
                />
              </Form.Item>
              <Form.Item
                className="cert-san-row__value"
                name={[field.name, 'value']}
                dependencies={[['san', field.name, 'type']]}
                rules={[
                  { required: true, message: t('validation.required') },
                  ({ getFieldValue }) => ({
                    validator: (_r, v: string | undefined) => {
                      if (!v) return Promise.resolve();
                      const problem = sanProblem(getFieldValue(['san', field.name, 'type']) as SanType, v);
                      return problem ? Promise.reject(new Error(t(problem))) : Promise.resolve();
                    },
                  }),
                ]}
              >
                <Input dir="ltr" aria-label={`${t('cert.san_value')} ${i + 1}`} spellCheck={false} data-testid="san-value" />
              </Form.Item>
              <Button icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={`${t('cert.san_remove')} ${i + 1}`} />
            </div>
          ))}
          <Button
            icon={<PlusOutlined />}
            onClick={() => add({ type: defaultType, value: '' })}
            disabled={fields.length >= PKI_LIMITS.sanEntriesMax}
            data-testid="san-add"
          >
            {t('cert.san_add')}
          </Button>
        </div>
      )}
    </Form.List>
  );
}
