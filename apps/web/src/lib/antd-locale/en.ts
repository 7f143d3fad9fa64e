/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/en_US';
import dayjs from 'dayjs';

export default function activate(): typeof antd {
  dayjs.locale('en');
  return antd;
}
