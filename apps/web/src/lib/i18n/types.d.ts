/** Makes `t('area.key')` a checked key of the English reference phrases. */
import 'i18next';
import type { Phrases } from '@umbo/contracts/phrases/types';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Phrases };
  }
}
