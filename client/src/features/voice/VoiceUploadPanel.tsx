import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { VOICE_UPLOAD_ACCEPT, type SubscriptionLimits } from '@alma/protocol';
import { Spinner } from '../../components/ui/Spinner.tsx';
import './voice.css';
import { uploadVoice, VoiceUploadError, type VoiceUploadResult } from './upload.ts';
import { validateVoiceFile } from './upload-logic.ts';
import { FileInput } from '../../components/ui/FileInput.tsx';

interface Props {
  /** The caller's access token (the upload is not a JSON call). */
  token: string | null;
  /** Subscription limits for the plan checks before upload; null: not known (the server checks). */
  loadLimits: () => Promise<SubscriptionLimits | null>;
  onUploaded: (result: VoiceUploadResult) => void;
  /** Injected in tests. */
  upload?: typeof uploadVoice;
}

type State =
  | { step: 'idle' }
  | { step: 'uploading'; progress: number }
  | { step: 'error'; message: string }
  | { step: 'done'; name: string; warnings: string[] };

/**
 * Upload of a custom voice (spec §2 Voice selector "upload", §5 Files; SPEC.md VU-1…VU-5): the
 * consent checkbox comes first and the file input stays disabled until it is ticked; the file is
 * checked here (format by name, 10 MB, the plan's limits) with the spec's texts, then sent with
 * its progress shown and, at 100 %, a spinner while the server analyses it. The panel says that
 * the builtin voice is an approximation of the uploaded one.
 */
export function VoiceUploadPanel({ token, loadLimits, onUploaded, upload = uploadVoice }: Props) {
  const { t, i18n } = useTranslation();
  const ids = {
    title: useId(),
    note: useId(),
    hint: useId(),
    consent: useId(),
    name: useId(),
    file: useId(),
  };
  const [consent, setConsent] = useState(false);
  const [name, setName] = useState('');
  const [state, setState] = useState<State>({ step: 'idle' });
  const input = useRef<HTMLInputElement>(null);
  const busy = state.step === 'uploading';

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !consent) return;
    const limits = await loadLimits().catch(() => null);
    const [problem] = validateVoiceFile(file, limits);
    if (problem) {
      setState({ step: 'error', message: t(`errors.${problem}`) });
      return;
    }
    setState({ step: 'uploading', progress: 0 });
    try {
      const result = await upload({
        file,
        name,
        language: i18n.language,
        token,
        failedText: t('voiceSelector.upload.failed'),
        onProgress: (progress) => setState({ step: 'uploading', progress }),
      });
      setState({ step: 'done', name: result.voice.name, warnings: result.warnings.slice(1) });
      setName('');
      onUploaded(result);
    } catch (error) {
      setState({
        step: 'error',
        message: error instanceof VoiceUploadError ? error.message : t('voiceSelector.upload.failed'),
      });
    }
  }

  return (
    <section className="voice-upload" aria-labelledby={ids.title} aria-busy={busy}>
      <h3 id={ids.title} className="voice-upload__title">
        {t('voiceSelector.upload.title')}
      </h3>
      <p id={ids.note} className="voice-upload__note">
        {t('voiceSelector.upload.approximation')}
      </p>
      <label className="voice-upload__consent" htmlFor={ids.consent}>
        <input
          id={ids.consent}
          type="checkbox"
          checked={consent}
          disabled={busy}
          onChange={(e) => setConsent(e.target.checked)}
        />
        <span>{t('voiceSelector.upload.consent')}</span>
      </label>
      <div className="voice-upload__row">
        <label className="voice-selector__field voice-upload__name" htmlFor={ids.name}>
          <span>{t('voiceSelector.upload.name')}</span>
          <input
            id={ids.name}
            className="input"
            value={name}
            maxLength={60}
            disabled={!consent || busy}
            placeholder={t('voiceSelector.upload.namePlaceholder')}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <div className="voice-selector__field voice-upload__file">
          <label htmlFor={ids.file}>{t('voiceSelector.upload.file')}</label>
          <FileInput
            inputRef={input}
            id={ids.file}
            accept={VOICE_UPLOAD_ACCEPT}
            disabled={!consent || busy}
            aria-describedby={`${ids.hint} ${ids.note}`}
            onChange={(e) => void onFile(e)}
          />
        </div>
      </div>
      <p id={ids.hint} className="voice-upload__hint">
        {consent ? t('voiceSelector.upload.hint') : t('validation.voiceConsentRequired')}
      </p>
      {state.step === 'uploading' ? (
        <div className="voice-upload__progress" role="status">
          <Spinner />
          <progress max={100} value={state.progress} aria-label={t('voiceSelector.upload.progress')} />
          <span>
            {state.progress < 100
              ? t('voiceSelector.upload.uploading', { progress: state.progress })
              : t('voiceSelector.upload.analysing')}
          </span>
        </div>
      ) : state.step === 'error' ? (
        <p className="voice-upload__error" role="alert">
          {state.message}
        </p>
      ) : state.step === 'done' ? (
        <div className="voice-upload__done" role="status">
          <p>{t('voiceSelector.upload.done', { name: state.name })}</p>
          {state.warnings.length > 0 ? (
            <ul>
              {state.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
