/**
 * A list of short strings (redirect URLs, source ranges) as one input per entry, each checked by
 * the contracts schema of one entry; the list as a whole is checked for its size and for
 * repeated entries (the server refuses both).
 */
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import { rulesFor, type FieldSchema } from '../../../lib/form-rules';

/** An example, the same in every language. */
export const URL_PLACEHOLDER = 'https://app.example.com/callback';

export interface StringListFieldProps {
  name: string;
  id: string;
  label: string;
  extra?: string;
  /** checks one entry */
  schema: FieldSchema;
  min: number;
  max: number;
  addLabel: string;
  placeholder?: string;
}

export function StringListField({ name, id, label, extra, schema, min, max, addLabel, placeholder }: StringListFieldProps) {
  const { t } = useTranslation();
  const listRules = [
    {
      validator: async (_: unknown, list: string[] | undefined) => {
        const values = (list ?? []).map((v) => v?.trim()).filter(Boolean);
        if (values.length < min) throw new Error(t('validation.required'));
        if (new Set(values).size !== values.length) throw new Error(t('clients.duplicate'));
      },
    },
  ];
  return (
    <Form.List name={name} rules={listRules}>
      {(fields, { add, remove }, { errors }) => (
        <Form.Item label={label} htmlFor={`${id}-0`} extra={extra} required={min > 0} className="client-list-field">
          {fields.map((field, index) => (
            <div key={field.key} className="client-list-field__row">
              <Form.Item
                name={field.name}
                className="client-list-field__item"
                validateTrigger={['onChange', 'onBlur']}
                // an empty extra row is harmless: it is dropped when saving
                rules={rulesFor(schema, t).filter((r) => !('required' in r))}
              >
                <Input id={`${id}-${index}`} dir="ltr" placeholder={placeholder} aria-label={`${label} ${index + 1}`} data-testid={`${id}-input`} />
              </Form.Item>
              {fields.length > min && (
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  onClick={() => remove(field.name)}
                  aria-label={t('clients.remove_item', { value: index + 1 })}
                  data-testid={`${id}-remove`}
                />
              )}
            </div>
          ))}
          {fields.length < max && (
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add('')} data-testid={`${id}-add`}>
              {addLabel}
            </Button>
          )}
          <Form.ErrorList errors={errors} />
        </Form.Item>
      )}
    </Form.List>
  );
}
