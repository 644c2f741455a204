import { useTranslation } from 'react-i18next';
import { useToasts } from '../../lib/toast.ts';
import { Icon } from './Icon.tsx';
import './toaster.css';

/** Shows the toasts of lib/toast.ts, newest last; each dismisses itself or on its close button. */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <div className="toaster" role="status" aria-live="polite">
      {toasts.map((item) => (
        <div key={item.id} className={`toast toast--${item.kind}`}>
          <span className="toast__text">{item.text}</span>
          <button
            type="button"
            className="icon-button icon-button--small"
            onClick={() => dismiss(item.id)}
            aria-label={t('common.close')}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
