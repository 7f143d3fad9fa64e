/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/zh_TW';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-tw';

export default function activate(): typeof antd {
  dayjs.locale('zh-tw');
  return antd;
}
