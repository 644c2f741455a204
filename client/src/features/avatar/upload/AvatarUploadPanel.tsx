import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AVATAR_UPLOAD_ACCEPT, type CustomAvatar, type SubscriptionLimits } from '@alma/protocol';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { subscriptionLimits } from '../../../lib/limits.ts';
import { useSession } from '../../../lib/session.ts';
import { CompatibilityReport } from './CompatibilityReport.tsx';
import { PROGRESS_MARKS, marksPassed, slotsNearlyFull, storageNearlyFull } from './upload-logic.ts';
import { useAvatarUpload } from './use-avatar-upload.ts';
import './avatar-upload.css';
import { FileInput } from '../../../components/ui/FileInput.tsx';

interface Props {
  /** Called 2 s after processing completed, with the ready avatar (spec §4). */
  onCompleted: (avatar: CustomAvatar) => void;
  /** Processing ended (completed, failed or cancelled): the list is refreshed (spec §4). */
  onSettled?: () => void;
}

/**
 * An upload's outcome (its report, its refusal) is scrolled into view when it appears: the panel
 * sits at the end of the picker, and what a static mesh cannot do was left below the fold.
 */
const reveal = (el: HTMLElement | null) => el?.scrollIntoView?.({ block: 'nearest' });

/**
 * Upload of a custom avatar (spec §2 avatar selector upload panel, §4, §5; SPEC.md AU-1…AU-5):
 * the plan's limits before anything (slots, storage, 80 % warnings, the upgrade-blocked alert),
 * the file checked here with the spec's texts, then the feedback panel: bytes sent, processing
 * steps as progress passes 20/40/60/80, cancel while processing, retry after a failure, and the
 * compatibility report when done.
 */
export function AvatarUploadPanel({ onCompleted, onSettled }: Props) {
  const { t } = useTranslation();
  const ids = { title: useId(), name: useId(), file: useId(), hint: useId() };
  const userId = useSession((s) => s.user?.id);
  const [limits, setLimits] = useState<SubscriptionLimits | null>(null);
  const [name, setName] = useState('');
  const { controller, state } = useAvatarUpload(onCompleted);
  const busy = state.phase === 'uploading' || state.phase === 'processing';

  const settled = state.phase === 'completed' || state.phase === 'failed' || state.phase === 'cancelled';
  useEffect(() => {
    if (settled) onSettled?.();
  }, [settled, onSettled]);

  // The plan's figures before any upload, and fresh ones once an upload has changed them.
  useEffect(() => {
    if (!userId) return;
    let live = true;
    void subscriptionLimits.get(userId, { force: settled }).then((r) => live && setLimits(r.subscription));
    return () => {
      live = false;
    };
  }, [userId, settled]);

  const blocked = limits
    ? !limits.canUploadAvatar || !limits.limits.features.includes('custom_avatars')
    : false;

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    void controller.start(file, name.trim() ? { name: name.trim() } : {});
  }

  return (
    <section className="avatar-upload" aria-labelledby={ids.title} aria-busy={busy}>
      <h3 id={ids.title} className="avatar-upload__title">
        {t('avatarUpload.title')}
      </h3>
      {limits ? (
        <dl className="avatar-upload__limits">
          <div>
            <dt>{t('avatarUpload.slots')}</dt>
            <dd>{limits.formatted.avatarSlotsUsed}</dd>
          </div>
          <div>
            <dt>{t('avatarUpload.storage')}</dt>
            <dd>
              {limits.formatted.totalStorage} / {limits.formatted.maxTotalStorage}
            </dd>
          </div>
          <div>
            <dt>{t('avatarUpload.maxSize')}</dt>
            <dd>{limits.formatted.maxAvatarFileSize}</dd>
          </div>
        </dl>
      ) : null}
      {limits && !blocked && (slotsNearlyFull(limits) || storageNearlyFull(limits)) ? (
        <p className="alert alert--warning" role="status">
          {slotsNearlyFull(limits) ? t('avatarUpload.slotsWarning') : t('avatarUpload.storageWarning')}
        </p>
      ) : null}
      {blocked ? (
        <div className="alert alert--info" role="alert">
          <p>{t('avatarUpload.blocked')}</p>
          <p>
            <Link to="/contact">{t('avatarUpload.contactSupport')}</Link>
          </p>
        </div>
      ) : (
        <div className="avatar-upload__row">
          <label className="avatar-upload__field" htmlFor={ids.name}>
            <span>{t('avatarUpload.name')}</span>
            <input
              id={ids.name}
              className="input"
              value={name}
              maxLength={60}
              disabled={busy}
              placeholder={t('avatarUpload.namePlaceholder')}
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <div className="avatar-upload__field">
            <label htmlFor={ids.file}>{t('avatarUpload.file')}</label>
            <FileInput
              id={ids.file}
              accept={AVATAR_UPLOAD_ACCEPT}
              disabled={busy}
              aria-describedby={ids.hint}
              data-testid="avatar-upload-input"
              onChange={onFile}
            />
          </div>
          <p id={ids.hint} className="avatar-upload__hint">
            {t('avatarUpload.hint')}
          </p>
        </div>
      )}
      <Feedback
        state={state}
        onCancel={() => void controller.cancel()}
        onRetry={() => void controller.retry()}
      />
    </section>
  );
}

function Feedback({
  state,
  onCancel,
  onRetry,
}: {
  state: ReturnType<typeof useAvatarUpload>['state'];
  onCancel: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  switch (state.phase) {
    case 'idle':
      return null;
    case 'uploading':
      return (
        <div className="avatar-upload__feedback" role="status" data-testid="avatar-upload-feedback">
          <Spinner />
          <progress max={100} value={state.progress} aria-label={t('avatarUpload.sending')} />
          <span>{t('avatarUpload.uploading', { progress: state.progress })}</span>
        </div>
      );
    case 'processing': {
      const passed = marksPassed(state.progress);
      return (
        <div className="avatar-upload__feedback" data-testid="avatar-upload-feedback">
          <p role="status">
            {t('avatarUpload.processing', { name: state.fileName, progress: state.progress })}
          </p>
          <progress max={100} value={state.progress} aria-label={t('avatarUpload.processingLabel')} />
          <ol className="avatar-upload__steps">
            {PROGRESS_MARKS.map((m, i) => (
              <li key={m.step} data-done={i < passed ? 'true' : 'false'}>
                <span aria-hidden="true">{i < passed ? '✓' : '○'}</span> {t(`avatarUpload.steps.${m.step}`)}
                <span className="visually-hidden">{i < passed ? ` ${t('avatarUpload.stepDone')}` : ''}</span>
              </li>
            ))}
          </ol>
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t('avatarUpload.cancel')}
          </button>
        </div>
      );
    }
    case 'completed':
      return (
        <div
          ref={reveal}
          className="avatar-upload__feedback avatar-upload__feedback--done"
          data-testid="avatar-upload-feedback"
        >
          <p role="status">{t('avatarUpload.done', { name: state.avatar.name })}</p>
          {state.avatar.compatibility ? <CompatibilityReport report={state.avatar.compatibility} /> : null}
        </div>
      );
    case 'failed':
      return (
        <div ref={reveal} className="avatar-upload__feedback" data-testid="avatar-upload-feedback">
          <p className="alert alert--error" role="alert">
            {state.message}
          </p>
          {state.canRetry ? (
            <button type="button" className="button" onClick={onRetry}>
              {t('avatarUpload.retry')}
            </button>
          ) : null}
        </div>
      );
    case 'cancelled':
      return (
        <div className="avatar-upload__feedback" data-testid="avatar-upload-feedback">
          <p role="status">{t('avatarUpload.cancelled')}</p>
          <button type="button" className="button" onClick={onRetry}>
            {t('avatarUpload.retry')}
          </button>
        </div>
      );
  }
}
