import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SESSION_TITLE_MAX_LENGTH, type ChatSession } from '@alma/protocol';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { useSessions } from '../store/sessions.ts';

export type SessionDialogState =
  | { kind: 'new' }
  | { kind: 'rename'; session: ChatSession }
  | { kind: 'delete'; session: ChatSession }
  | { kind: 'export'; session: ChatSession }
  | { kind: 'clear' }
  | null;

/**
 * The four session dialogs of spec §2 — new (optional title), rename, delete (confirm), export
 * (JSON download named after the session id) — and the options menu's clear-history confirm.
 */
export function SessionDialogs({ state, onClose }: { state: SessionDialogState; onClose: () => void }) {
  if (!state) return null;
  switch (state.kind) {
    case 'new':
      return <NewSessionDialog onClose={onClose} />;
    case 'rename':
      return <RenameDialog session={state.session} onClose={onClose} />;
    case 'delete':
      return <DeleteDialog session={state.session} onClose={onClose} />;
    case 'export':
      return <ExportDialog session={state.session} onClose={onClose} />;
    case 'clear':
      return <ClearHistoryDialog onClose={onClose} />;
  }
}

function NewSessionDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const create = useSessions((s) => s.create);
  const [title, setTitle] = useState('');
  return (
    <Dialog
      title={t('chat.dialogs.newTitle')}
      onClose={onClose}
      onSubmit={() => {
        void create(title);
        onClose();
      }}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary">
            {t('common.create')}
          </button>
        </>
      }
    >
      <TextField
        label={t('chat.dialogs.titleLabel')}
        value={title}
        maxLength={SESSION_TITLE_MAX_LENGTH}
        onChange={(e) => setTitle(e.target.value)}
      />
    </Dialog>
  );
}

function RenameDialog({ session, onClose }: { session: ChatSession; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useSessions((s) => s.rename);
  const autoTitle = useSessions((s) => s.autoTitle);
  const [title, setTitle] = useState(session.title ?? '');
  const [suggesting, setSuggesting] = useState(false);
  const empty = title.trim().length === 0;
  return (
    <Dialog
      title={t('chat.dialogs.renameTitle')}
      onClose={onClose}
      onSubmit={() => {
        if (empty) return;
        void rename(session.sessionId, title.trim());
        onClose();
      }}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={empty}>
            {t('common.save')}
          </button>
        </>
      }
    >
      <TextField
        label={t('chat.dialogs.renameLabel')}
        value={title}
        maxLength={SESSION_TITLE_MAX_LENGTH}
        onChange={(e) => setTitle(e.target.value)}
        required
      />
      <button
        type="button"
        className="button button--small button--ghost"
        disabled={suggesting}
        onClick={() => {
          // POST /chat/sessions/:id/auto-title titles the session at once (SPEC.md C-12).
          setSuggesting(true);
          void autoTitle(session.sessionId).then((suggested) => {
            setSuggesting(false);
            if (suggested !== null) onClose();
          });
        }}
      >
        <Icon name="sparkle" size={16} />
        {t('chat.dialogs.autoTitle')}
      </button>
    </Dialog>
  );
}

function DeleteDialog({ session, onClose }: { session: ChatSession; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useSessions((s) => s.remove);
  return (
    <Dialog
      title={t('chat.dialogs.deleteTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              void remove(session.sessionId);
              onClose();
            }}
          >
            {t('common.delete')}
          </button>
        </>
      }
    >
      <p>{t('chat.dialogs.deleteConfirm', { title: session.title ?? t('chat.untitled') })}</p>
    </Dialog>
  );
}

function ExportDialog({ session, onClose }: { session: ChatSession; onClose: () => void }) {
  const { t } = useTranslation();
  const exportSession = useSessions((s) => s.exportSession);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      title={t('chat.dialogs.exportTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void exportSession(session.sessionId).then((ok) => {
                setBusy(false);
                if (ok) onClose();
              });
            }}
          >
            <Icon name="download" size={18} />
            {t('chat.dialogs.exportAction')}
          </button>
        </>
      }
    >
      <p>{t('chat.dialogs.exportText', { title: session.title ?? t('chat.untitled') })}</p>
      <p className="dialog__note">
        <code>{`${session.sessionId}.json`}</code>
      </p>
    </Dialog>
  );
}

function ClearHistoryDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const clear = useSessions((s) => s.clearHistory);
  return (
    <Dialog
      title={t('chat.dialogs.clearTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              void clear();
              onClose();
            }}
          >
            {t('chat.dialogs.clearAction')}
          </button>
        </>
      }
    >
      <p>{t('chat.dialogs.clearText')}</p>
    </Dialog>
  );
}
