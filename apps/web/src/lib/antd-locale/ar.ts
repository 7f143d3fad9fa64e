/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/ar_EG';
import dayjs from 'dayjs';
import 'dayjs/locale/ar';

export default function activate(): typeof antd {
  dayjs.locale('ar');
  return antd;
}
