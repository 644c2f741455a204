import { useTranslation } from 'react-i18next';
import { usageLevel, usageRatio } from '../plan.ts';

/** One usage meter: "used / limit", a bar that turns warning at 70 % and danger at 90 %. */
export function UsageBar({
  label,
  used,
  limit,
  limitLabel,
}: {
  label: string;
  used: number;
  limit: number | null;
  limitLabel?: string;
}) {
  const { t, i18n } = useTranslation();
  const level = usageLevel(used, limit);
  const percent = Math.round(usageRatio(used, limit) * 100);
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const cap = limit === null ? (limitLabel ?? '∞') : number.format(limit);
  return (
    <div className="usage-row" data-level={level}>
      <div className="usage-row__head">
        <span>{label}</span>
        <span className="usage-row__value">
          {t('dashboard.usage.of', { used: number.format(used), limit: cap })}
          {limit !== null ? <span className="muted"> · {percent} %</span> : null}
        </span>
      </div>
      {limit === null ? (
        <p className="muted usage-row__unlimited">{t('dashboard.usage.unlimited')}</p>
      ) : (
        <div
          className="meter"
          role="progressbar"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
          aria-valuetext={t('dashboard.usage.of', { used: number.format(used), limit: cap })}
        >
          <span className={`meter__fill meter__fill--${level}`} style={{ width: `${percent}%` }} />
        </div>
      )}
      {level !== 'normal' ? (
        <p className={`usage-row__warning usage-row__warning--${level}`}>
          {t(level === 'danger' ? 'dashboard.usage.danger' : 'dashboard.usage.warning')}
        </p>
      ) : null}
    </div>
  );
}
