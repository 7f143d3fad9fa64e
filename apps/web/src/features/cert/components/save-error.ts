/**
 * A refused save, said where the user looks: under the field the server names (errData
 * {field}), otherwise as a message. The mutations are marked inlineError, so nothing is said
 * twice. (The clients feature has its twin; features do not import each other.)
 */
import type { FormInstance } from 'antd/es/form';
import { ApiError, fieldError } from '../../../lib/api-error';
import { showError } from '../../../lib/feedback';

export function showSaveError(form: FormInstance, err: Error, fields: readonly string[]): void {
  // errData.field may name an entry of a list ("san.1"): the list's field takes the message.
  const field = fieldError(err)?.field.split('.')[0];
  if (field && fields.includes(field)) {
    form.setFields([{ name: field, errors: [err.message] }]);
    form.scrollToField(field);
    return;
  }
  if (err instanceof ApiError && err.notified) return;
  showError(err instanceof ApiError && err.say ? err.say : err.message);
}
