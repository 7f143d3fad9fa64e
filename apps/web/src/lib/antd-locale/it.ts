/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/it_IT';
import dayjs from 'dayjs';
import 'dayjs/locale/it';

export default function activate(): typeof antd {
  dayjs.locale('it');
  return antd;
}
