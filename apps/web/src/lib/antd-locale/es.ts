/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/es';

export default function activate(): typeof antd {
  dayjs.locale('es');
  return antd;
}
