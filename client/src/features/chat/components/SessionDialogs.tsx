import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SESSION_TITLE_MAX_LENGTH, type ChatSession } from '@alma/protocol';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { useChat } from '../store.ts';

export type SessionDialogState =
  | { kind: 'new' }
  | { kind: 'rename'; session: ChatSession }
  | { kind: 'delete'; session: ChatSession }
  | null;

/** New (optional title), rename and delete (confirm) dialogs of spec §2. */
export function SessionDialogs({ state, onClose }: { state: SessionDialogState; onClose: () => void }) {
  if (!state) return null;
  if (state.kind === 'new') return <NewSessionDialog onClose={onClose} />;
  if (state.kind === 'rename') return <RenameDialog session={state.session} onClose={onClose} />;
  return <DeleteDialog session={state.session} onClose={onClose} />;
}

function NewSessionDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const create = useChat((s) => s.createSession);
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
  const rename = useChat((s) => s.renameSession);
  const [title, setTitle] = useState(session.title ?? '');
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
    </Dialog>
  );
}

function DeleteDialog({ session, onClose }: { session: ChatSession; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useChat((s) => s.deleteSession);
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
