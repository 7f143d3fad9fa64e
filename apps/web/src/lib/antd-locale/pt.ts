/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/pt_BR';
import dayjs from 'dayjs';
import 'dayjs/locale/pt-br';

export default function activate(): typeof antd {
  dayjs.locale('pt-br');
  return antd;
}
