/** SPEC §5 password strength: strong / medium / low, as a coloured bar and a word. */
import Progress from 'antd/es/progress';
import { useTranslation } from 'react-i18next';
import { passwordStrength } from '@umbo/contracts/checks';

const LOOK = { strong: { percent: 100, color: '#52c41a' }, medium: { percent: 66, color: '#faad14' }, low: { percent: 33, color: '#ff4d4f' } } as const;

export function StrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  if (!password) return null;
  const strength = passwordStrength(password);
  const look = LOOK[strength];
  return (
    <div data-testid="password-strength" data-strength={strength}>
      <Progress percent={look.percent} strokeColor={look.color} showInfo={false} size="small" />
      <span style={{ color: look.color }}>
        {t('security.strength')}: {t(`account.strength_${strength}`)}
      </span>
    </div>
  );
}
