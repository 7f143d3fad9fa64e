/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/de_DE';
import dayjs from 'dayjs';
import 'dayjs/locale/de';

export default function activate(): typeof antd {
  dayjs.locale('de');
  return antd;
}
