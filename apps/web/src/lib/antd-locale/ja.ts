/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/ja_JP';
import dayjs from 'dayjs';
import 'dayjs/locale/ja';

export default function activate(): typeof antd {
  dayjs.locale('ja');
  return antd;
}
