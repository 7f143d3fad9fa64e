/** antd's and dayjs's texts for this locale; loaded only with antd screens. */
import antd from 'antd/es/locale/fr_FR';
import dayjs from 'dayjs';
import 'dayjs/locale/fr';

export default function activate(): typeof antd {
  dayjs.locale('fr');
  return antd;
}
