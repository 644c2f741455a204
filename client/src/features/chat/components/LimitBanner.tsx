import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConversation } from '../store/conversation.ts';
import { useConnection } from '../../../lib/realtime.ts';

/** Shown on `limit:reached` or a 429 (spec §2): the message, a way to the dashboard, and close. */
export function LimitBanner() {
  const { t } = useTranslation();
  const limit = useConversation((s) => s.limit);
  const dismiss = useConversation((s) => s.dismissLimit);
  if (!limit) return null;
  return (
    <div className="banner banner--warning" role="alert">
      <p>
        <strong>{t('chat.limit.title')}. </strong>
        {limit.message || t('errors.limit_reached')}
      </p>
      <div className="banner__actions">
        <Link to="/dashboard" className="button button--small button--primary">
          {t('chat.limit.dashboard')}
        </Link>
        <button type="button" className="button button--small button--ghost" onClick={dismiss}>
          {t('chat.limit.close')}
        </button>
      </div>
    </div>
  );
}

export function ProtocolBanner() {
  const { t } = useTranslation();
  const mismatch = useConnection((s) => s.protocolMismatch);
  if (!mismatch) return null;
  return (
    <div className="banner banner--info" role="alert">
      <p>{t(`errors.${mismatch}`)}</p>
      {mismatch === 'client_too_old' ? (
        <div className="banner__actions">
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => window.location.reload()}
          >
            {t('app.reload')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
