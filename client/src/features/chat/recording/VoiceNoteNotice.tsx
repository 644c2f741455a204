import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';
import { useNoteMode } from './note-mode.ts';

/**
 * Said before recording (issue 11, ENGINES.md): that the browser will transcribe the note and
 * where its audio goes, or that this server cannot transcribe notes in the user's language.
 * Nothing when the server transcribes them itself.
 */
export function VoiceNoteNotice({ id }: { id: string }) {
  const { t } = useTranslation();
  const { mode, language } = useNoteMode();
  if (mode === 'server') return null;
  return (
    <p id={id} className={`composer__notice composer__notice--${mode}`} data-testid="voice-note-notice">
      <Icon name={mode === 'browser' ? 'mic' : 'volumeOff'} size={14} />
      <span>
        {mode === 'browser'
          ? t('voiceNote.browserNotice')
          : t('voiceNote.noTranscriptionNotice', { language: t(`voiceNote.languageName.${language}`) })}
      </span>
    </p>
  );
}
