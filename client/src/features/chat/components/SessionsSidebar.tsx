import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatSession } from '@alma/protocol';
import { Icon } from '../../../components/ui/Icon.tsx';
import { IconButton } from '../../../components/ui/IconButton.tsx';
import { useSessions } from '../store/sessions.ts';
import { useConversation } from '../store/conversation.ts';

interface Props {
  open: boolean;
  onClose: () => void;
  onNew: () => void;
  onRename: (session: ChatSession) => void;
  onDelete: (session: ChatSession) => void;
  onExport: (session: ChatSession) => void;
}

/** Sessions list with new, refresh, rename, delete, export; a slide-in drawer at ≤1023 px (spec §2). */
export function SessionsSidebar({ open, onClose, onNew, onRename, onDelete, onExport }: Props) {
  const { t, i18n } = useTranslation();
  const sessions = useSessions((s) => s.sessions);
  const activeId = useConversation((s) => s.activeSessionId);
  const loaded = useSessions((s) => s.loaded);
  const select = useSessions((s) => s.select);
  const refresh = useSessions((s) => s.refresh);
  const panel = useRef<HTMLElement>(null);

  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>('button')?.focus();
  }, [open]);

  const dateFormat = new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short' });

  return (
    <>
      <div
        className={`drawer-backdrop ${open ? 'drawer-backdrop--open' : ''}`}
        onClick={onClose}
        aria-hidden="true"
      />
      <aside
        ref={panel}
        id="sessions-drawer"
        className={`sessions ${open ? 'sessions--open' : ''}`}
        aria-label={t('chat.sessions')}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            // Consumed: the chat overlay behind the drawer stays open.
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <div className="sessions__header">
          <h2 className="sessions__title">{t('chat.sessions')}</h2>
          <div className="sessions__tools">
            <IconButton
              icon="refresh"
              iconSize={18}
              label={t('chat.refreshSessions')}
              onClick={() => void refresh()}
            />
            <button
              type="button"
              className="icon-button sessions__close"
              onClick={onClose}
              aria-label={t('chat.closeSessions')}
            >
              <Icon name="close" size={18} />
            </button>
          </div>
        </div>
        <button type="button" className="button button--primary button--block sessions__new" onClick={onNew}>
          <Icon name="plus" size={18} />
          {t('chat.newSession')}
        </button>
        {loaded && sessions.length === 0 ? <p className="sessions__empty">{t('chat.noSessions')}</p> : null}
        <ul className="sessions__list" aria-label={t('chat.sessionsList')}>
          {sessions.map((s) => {
            const title = s.title ?? t('chat.untitled');
            const active = s.sessionId === activeId;
            return (
              <li key={s.sessionId} className={`session ${active ? 'session--active' : ''}`}>
                <button
                  type="button"
                  className="session__select"
                  aria-current={active ? 'true' : undefined}
                  onClick={() => {
                    if (!active) void select(s.sessionId);
                    onClose();
                  }}
                >
                  <span className="session__title">{title}</span>
                  <span className="session__meta">
                    {t('chat.messagesCount', { count: s.messageCount })} ·{' '}
                    {dateFormat.format(new Date(s.updatedAt))}
                  </span>
                </button>
                <div className="session__actions">
                  <IconButton
                    icon="edit"
                    iconSize={16}
                    className="icon-button--small"
                    label={`${t('common.rename')}: ${title}`}
                    title={t('common.rename')}
                    onClick={() => onRename(s)}
                  />
                  <IconButton
                    icon="download"
                    iconSize={16}
                    className="icon-button--small"
                    label={`${t('chat.export')}: ${title}`}
                    title={t('chat.export')}
                    onClick={() => onExport(s)}
                  />
                  <IconButton
                    icon="trash"
                    iconSize={16}
                    className="icon-button--small"
                    label={`${t('common.delete')}: ${title}`}
                    title={t('common.delete')}
                    onClick={() => onDelete(s)}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      </aside>
    </>
  );
}
