import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BIO_MAX_LENGTH,
  LoginPasswordSchema,
  NameSchema,
  NewPasswordSchema,
  routes,
  type FieldCode,
} from '@alma/protocol';
import { PasswordField, TextField } from '../../../components/ui/Field.tsx';
import { ApiError, call, errorText } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.ts';
import { fieldError } from '../../../lib/validation.ts';
import { Card } from './Card.tsx';

type Status = { kind: 'idle' } | { kind: 'saved' } | { kind: 'error'; message: string };

/** Server field errors by field name (their messages are already localized). */
function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(error.fieldErrors.map((f) => [f.field, f.message]));
}

/** Name and bio editable (PUT /auth/updatedetails), email read only, and a password change. */
export function ProfileTab() {
  const user = useSession((s) => s.user);
  if (!user) return null;
  return (
    <div className="stack">
      <DetailsForm key={user.id} />
      <PasswordForm />
    </div>
  );
}

function DetailsForm() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const [name, setName] = useState(user?.name ?? '');
  const [bio, setBio] = useState(user?.bio ?? '');
  const [errors, setErrors] = useState<{ name?: string; bio?: string }>({});
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  if (!user) return null;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const nameCode = fieldError(NameSchema, name);
    const bioCode: FieldCode | null = bio.trim().length > BIO_MAX_LENGTH ? 'tooLong' : null;
    const found = {
      name: nameCode ? t(`validation.${nameCode}`) : undefined,
      bio: bioCode ? t(`validation.${bioCode}`) : undefined,
    };
    setErrors(found);
    if (found.name || found.bio) return;
    setSaving(true);
    setStatus({ kind: 'idle' });
    try {
      const { user: updated } = await call(routes.account.updateDetails, {
        body: { name: name.trim(), bio: bio.trim() },
      });
      useSession.getState().setUser(updated);
      setName(updated.name);
      setBio(updated.bio);
      setStatus({ kind: 'saved' });
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors({ name: fields.name, bio: fields.bio });
      setStatus({ kind: 'error', message: errorText(error, t('errors.profileUpdate')) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title={t('dashboard.profile.title')}>
      <form
        className="form"
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-label={t('dashboard.profile.title')}
      >
        <TextField
          label={t('dashboard.profile.name')}
          name="name"
          autoComplete="name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setErrors((s) => ({ ...s, name: undefined }));
            setStatus({ kind: 'idle' });
          }}
          error={errors.name}
          required
        />
        <TextField
          label={t('dashboard.profile.email')}
          name="email"
          type="email"
          value={user.email}
          readOnly
          aria-readonly="true"
          hint={t('dashboard.profile.emailReadOnly')}
        />
        <div className={`field ${errors.bio ? 'field--invalid' : ''}`}>
          <label className="field__label" htmlFor="profile-bio">
            {t('dashboard.profile.bio')}
          </label>
          <textarea
            id="profile-bio"
            name="bio"
            className="field__input"
            rows={3}
            maxLength={BIO_MAX_LENGTH}
            value={bio}
            placeholder={t('dashboard.profile.bioPlaceholder')}
            aria-invalid={errors.bio ? true : undefined}
            aria-describedby={errors.bio ? 'profile-bio-error' : 'profile-bio-count'}
            onChange={(e) => {
              setBio(e.target.value);
              setErrors((s) => ({ ...s, bio: undefined }));
              setStatus({ kind: 'idle' });
            }}
          />
          {errors.bio ? (
            <p className="field__error" id="profile-bio-error">
              {errors.bio}
            </p>
          ) : (
            <p className="field__hint" id="profile-bio-count">
              {t('dashboard.profile.bioCount', { count: bio.length, max: BIO_MAX_LENGTH })}
            </p>
          )}
        </div>
        <p className="muted">
          {t('dashboard.profile.role')}: {t(`dashboard.profile.roles.${user.role}`)}
        </p>
        <div className="form__actions form__actions--start">
          <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
            {saving ? t('dashboard.saving') : t('dashboard.profile.save')}
          </button>
        </div>
        <StatusLine status={status} savedText={t('dashboard.profile.saved')} />
      </form>
    </Card>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ current?: string; next?: string; confirm?: string }>({});
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const currentCode = fieldError(LoginPasswordSchema, current);
    const nextCode = fieldError(NewPasswordSchema, next);
    const confirmCode: FieldCode | null = !confirm
      ? 'confirmPasswordRequired'
      : confirm !== next
        ? 'passwordMismatch'
        : null;
    const found = {
      current: currentCode ? t(`validation.${currentCode}`) : undefined,
      next: nextCode ? t(`validation.${nextCode}`) : undefined,
      confirm: confirmCode ? t(`validation.${confirmCode}`) : undefined,
    };
    setErrors(found);
    if (found.current || found.next || found.confirm) return;
    setSaving(true);
    setStatus({ kind: 'idle' });
    try {
      const session = await call(routes.account.updatePassword, {
        body: { currentPassword: current, newPassword: next },
      });
      // The other sessions were revoked; this one continues with the new tokens.
      useSession.getState().setSession(session);
      setCurrent('');
      setNext('');
      setConfirm('');
      setStatus({ kind: 'saved' });
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors({ current: fields.currentPassword, next: fields.newPassword });
      setStatus({ kind: 'error', message: errorText(error, t('errors.general')) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title={t('dashboard.password.title')}>
      <form
        className="form"
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-label={t('dashboard.password.title')}
      >
        <PasswordField
          label={t('dashboard.password.current')}
          name="currentPassword"
          autoComplete="current-password"
          value={current}
          onChange={(e) => {
            setCurrent(e.target.value);
            setErrors((s) => ({ ...s, current: undefined }));
          }}
          error={errors.current}
        />
        <PasswordField
          label={t('dashboard.password.new')}
          name="newPassword"
          autoComplete="new-password"
          value={next}
          onChange={(e) => {
            setNext(e.target.value);
            setErrors((s) => ({ ...s, next: undefined }));
          }}
          error={errors.next}
          hint={t('auth.register.passwordHint')}
        />
        <PasswordField
          label={t('dashboard.password.confirm')}
          name="confirmNewPassword"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            setErrors((s) => ({ ...s, confirm: undefined }));
          }}
          error={errors.confirm}
        />
        <div className="form__actions form__actions--start">
          <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
            {saving ? t('dashboard.saving') : t('dashboard.password.submit')}
          </button>
        </div>
        <StatusLine status={status} savedText={t('dashboard.password.saved')} />
      </form>
    </Card>
  );
}

export function StatusLine({ status, savedText }: { status: Status; savedText: string }) {
  return (
    <div aria-live="polite">
      {status.kind === 'saved' ? (
        <p className="alert alert--success" role="status">
          {savedText}
        </p>
      ) : null}
      {status.kind === 'error' ? (
        <p className="alert alert--error" role="alert">
          {status.message}
        </p>
      ) : null}
    </div>
  );
}
