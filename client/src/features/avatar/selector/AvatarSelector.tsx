import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SystemAvatar } from '@alma/protocol';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { usePreferencesOf } from '../../../lib/preferences.ts';
import { useSession } from '../../../lib/session.ts';
import { modelUrlFor } from '../model.ts';
import { selectAvatar } from '../selection.ts';
import { AvatarViewer, type AvatarViewerHandle } from '../viewer/AvatarViewer.tsx';
import { AvatarPortrait } from './AvatarPortrait.tsx';
import { DEFAULT_CHOICE, avatarCategory, avatarText, confirmedChoice, initialChoice } from './logic.ts';
import { CustomAvatars } from './CustomAvatars.tsx';
import { PreviewButton } from './PreviewButton.tsx';
import { useAvatarCatalog, type CatalogState, type DefaultAvatarEntry } from './use-avatar-catalog.ts';
import { useCustomAvatars } from './use-custom-avatars.ts';

/** What the 3D preview needs of a system or custom avatar. */
type PreviewAvatar = Pick<SystemAvatar, 'id' | 'name' | 'description'>;
import '../avatar.css';

/**
 * The avatar selector (spec §2 "Avatar selector modal", §4 Avatar selection): the system avatars
 * from GET /api/avatars as a radio grid, each with a 3D preview modal (reset view, rotate 90°,
 * cancel, confirm), and the user's custom avatars with their upload panel. Two variants: the
 * chat's modal, which saves the choice itself, and the embedded one of the onboarding, which
 * reports it and offers a retry when the list fails.
 */

/** The chat's modal: confirm stores the choice locally and as the account's selectedAvatarId. */
export function AvatarSelectorModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.user?.id ?? null);
  const stored = usePreferencesOf(userId).avatar;
  const catalog = useAvatarCatalog();
  const custom = useCustomAvatars();
  const avatars = catalog.status === 'ready' ? catalog.avatars : [];
  const choosable = [...avatars, ...custom.avatars.filter((a) => a.status === 'completed')];
  const [picked, setPicked] = useState<string | null | undefined>(undefined);
  // Nothing stored (or a choice that is gone) is the default avatar, checked like any other.
  const value = picked === undefined ? (initialChoice(stored, choosable) ?? DEFAULT_CHOICE) : picked;
  const [previewing, setPreviewing] = useState<PreviewAvatar | null>(null);
  const [saving, setSaving] = useState(false);

  async function confirm(id: string | null) {
    if (!userId) return onClose();
    setSaving(true);
    await selectAvatar(userId, confirmedChoice(id, choosable));
    setSaving(false);
    onClose();
  }

  return (
    <>
      <Dialog
        title={t('avatar.selector.title')}
        onClose={onClose}
        className="dialog--wide"
        onSubmit={() => void confirm(value)}
        actions={
          <>
            <button type="button" className="button button--ghost" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="button button--primary" disabled={!value || saving}>
              {t('common.confirm')}
            </button>
          </>
        }
      >
        <div className="avatar-selector" data-testid="avatar-selector">
          <CatalogStatus catalog={catalog} />
          {catalog.status === 'ready' ? (
            <AvatarGrid
              name="avatar-modal"
              avatars={avatars}
              defaultAvatar={catalog.defaultAvatar}
              value={value}
              current={stored}
              onChange={setPicked}
              onPreview={setPreviewing}
            />
          ) : null}
          <CustomAvatars
            name="avatar-modal"
            custom={custom}
            value={value}
            onChange={setPicked}
            onPreview={setPreviewing}
            onUploaded={(avatar) => setPicked(avatar.id)}
          />
        </div>
      </Dialog>
      {previewing ? (
        <AvatarPreviewDialog
          avatar={previewing}
          onCancel={() => setPreviewing(null)}
          onConfirm={() => {
            setPicked(previewing.id);
            setPreviewing(null);
            void confirm(previewing.id);
          }}
        />
      ) : null}
    </>
  );
}

/**
 * The onboarding's variant: the grid beside a live 3D preview of the highlighted avatar; the
 * parent owns the value and the gating.
 */
export function EmbeddedAvatarSelector({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const catalog = useAvatarCatalog();
  const custom = useCustomAvatars();
  const [previewing, setPreviewing] = useState<PreviewAvatar | null>(null);
  const avatars = catalog.status === 'ready' ? catalog.avatars : [];
  const chosen = [...avatars, ...custom.avatars].find((a) => a.id === value) ?? null;
  const chosenName = chosen ? avatarText(chosen, t).name : t('avatar.defaultName');

  return (
    <div className="avatar-selector avatar-selector--embedded" data-testid="avatar-selector">
      <CatalogStatus catalog={catalog} withRetry />
      {catalog.status === 'ready' ? (
        <div className="avatar-selector__layout avatar-selector__layout--with-preview">
          <AvatarGrid
            name="avatar"
            avatars={avatars}
            value={value}
            onChange={onChange}
            onPreview={setPreviewing}
          />
          <div className="avatar-selector__preview" aria-live="polite">
            <p className="field__hint">
              {t('avatar.selector.livePreview')}: {chosenName}
            </p>
            <AvatarViewer
              modelUrl={modelUrlFor(chosen?.id)}
              avatar={chosen?.id ?? null}
              label={t('avatar.viewer.label', { name: chosenName })}
            />
          </div>
        </div>
      ) : null}
      <CustomAvatars
        name="avatar"
        custom={custom}
        value={value}
        onChange={onChange}
        onPreview={setPreviewing}
        onUploaded={(avatar) => onChange(avatar.id)}
      />
      {previewing ? (
        <AvatarPreviewDialog
          avatar={previewing}
          onCancel={() => setPreviewing(null)}
          onConfirm={() => {
            onChange(previewing.id);
            setPreviewing(null);
          }}
        />
      ) : null}
    </div>
  );
}

function CatalogStatus({
  catalog,
  withRetry,
}: {
  catalog: CatalogState & { retry: () => void };
  withRetry?: boolean;
}) {
  const { t } = useTranslation();
  if (catalog.status === 'loading')
    return (
      <p className="avatar-selector__status" role="status">
        <Spinner /> {t('avatar.selector.loading')}
      </p>
    );
  if (catalog.status === 'error')
    return (
      <div className="avatar-selector__status">
        <p className="alert alert--error" role="alert">
          {t('avatar.selector.loadError')}
        </p>
        {withRetry ? (
          <button type="button" className="button button--ghost" onClick={catalog.retry}>
            <Icon name="refresh" size={16} />
            {t('common.retry')}
          </button>
        ) : null}
      </div>
    );
  return null;
}

function AvatarGrid({
  name,
  avatars,
  defaultAvatar,
  value,
  current,
  onChange,
  onPreview,
}: {
  name: string;
  avatars: readonly SystemAvatar[];
  /** The default avatar's entry, offered first (the chat's picker). */
  defaultAvatar?: DefaultAvatarEntry;
  value: string | null;
  current?: string | null;
  onChange: (id: string) => void;
  onPreview: (avatar: PreviewAvatar) => void;
}) {
  const { t } = useTranslation();
  const card = (avatar: PreviewAvatar, portrait: string, meta: string, isCurrent: boolean) => (
    <div key={avatar.id} className="avatar-card" data-avatar={avatar.id}>
      <label className="avatar-card__choice">
        <input
          type="radio"
          name={name}
          value={avatar.id}
          checked={value === avatar.id}
          onChange={() => onChange(avatar.id)}
          className="choice-card__input"
        />
        <AvatarPortrait
          src={portrait}
          id={avatar.id === DEFAULT_CHOICE ? null : avatar.id}
          name={avatar.name}
        />
        <span className="avatar-card__name">{avatar.name}</span>
        <span className="avatar-card__meta">
          {meta}
          {isCurrent ? ` · ${t('avatar.selector.current')}` : ''}
        </span>
        <span className="avatar-card__text">{avatar.description}</span>
      </label>
      <PreviewButton name={avatar.name} onPreview={() => onPreview(avatar)} />
    </div>
  );
  return (
    <div className="avatar-selector__grid" role="radiogroup" aria-label={t('avatar.selector.system')}>
      {defaultAvatar
        ? card(
            {
              id: DEFAULT_CHOICE,
              name: t('avatar.defaultName'),
              description: t('avatar.selector.defaultDescription'),
            },
            defaultAvatar.portrait,
            t('avatar.selector.defaultMeta'),
            current === null || current === undefined,
          )
        : null}
      {avatars.map((avatar) =>
        card(
          { id: avatar.id, ...avatarText(avatar, t) },
          avatar.portrait,
          t(`avatar.selector.categories.${avatarCategory(avatar)}`),
          current === avatar.id,
        ),
      )}
    </div>
  );
}

/** "Previsualización 3D" + name: the model to turn and zoom before choosing it. */
export function AvatarPreviewDialog({
  avatar,
  onCancel,
  onConfirm,
}: {
  avatar: PreviewAvatar;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const viewer = useRef<AvatarViewerHandle>(null);
  const name = avatarText(avatar, t).name;
  return (
    <Dialog
      title={t('avatar.selector.previewTitle', { name })}
      onClose={onCancel}
      className="dialog--preview"
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button--primary" onClick={onConfirm}>
            {t('avatar.selector.choose')}
          </button>
        </>
      }
    >
      <div className="avatar-selector__preview" data-testid="avatar-preview">
        <AvatarViewer
          modelUrl={modelUrlFor(avatar.id)}
          avatar={avatar.id === DEFAULT_CHOICE ? null : avatar.id}
          label={t('avatar.viewer.label', { name })}
          handleRef={viewer}
        />
        <div className="avatar-preview__tools">
          <button type="button" className="button button--ghost" onClick={() => viewer.current?.resetView()}>
            <Icon name="refresh" size={16} />
            {t('avatar.selector.resetView')}
          </button>
          <button type="button" className="button button--ghost" onClick={() => viewer.current?.rotate(90)}>
            <Icon name="chevronRight" size={16} />
            {t('avatar.selector.rotate')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
