import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { routes, type Voice } from '@alma/protocol';
import { call, errorText } from '../../lib/api.ts';
import { subscriptionLimits } from '../../lib/limits.ts';
import { savePreferences, usePreferences, usePreferencesOf } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { readJson, StorageKey, writeJson, writeString } from '../../lib/storage.ts';
import { toast } from '../../lib/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { FOCUSABLE, handleModalKeyDown } from '../ui/focus-trap.ts';
import { Spinner } from '../ui/Spinner.tsx';
import {
  categoryFilters,
  clampPage,
  filterVoices,
  LANGUAGE_FILTERS,
  pageButtons,
  pageCount,
  pageOf,
  parseIdList,
  PREVIEW_LOAD_TIMEOUT_MS,
  pushRecent,
  toggleFavorite,
  VOLUME,
  type CategoryFilter,
  type LanguageFilter,
} from './logic.ts';
import type { VoiceUploadResult } from './upload.ts';
import { VoiceUploadPanel } from './VoiceUploadPanel.tsx';
import './voice-selector.css';

interface Props {
  onClose: () => void;
  /** Called with the confirmed voice after it was saved. */
  onConfirmed?: (voice: Voice) => void;
  /** The chat session the choice applies to (POST /api/voices/select `sessionId`). */
  sessionId?: string | null;
}

type LoadState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; voices: Voice[] };

/**
 * The voice selector modal (spec §2 "Voice selector modal", §4 "Voice selection", §5 "Voice
 * list"): category and language filters, search, eight voices a page with at most five page
 * buttons, favourites and the last ten recents (local storage), a preview with a play / stop
 * toggle and a volume slider, and a confirmation bar. Escape and the backdrop close it, page scroll
 * is locked while it is open, focus stays inside and returns afterwards.
 */
export function VoiceSelector({ onClose, onConfirmed, sessionId }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const userId = useSession((s) => s.user?.id ?? null);
  const token = useSession((s) => s.token);
  const prefs = usePreferencesOf(userId);

  const [load, setLoad] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [recommendedIds, setRecommendedIds] = useState<string[] | null>(null);
  const [category, setCategory] = useState<CategoryFilter>('todos');
  const [language, setLanguage] = useState<LanguageFilter>('todos');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [favorites, setFavorites] = useState<string[]>(() =>
    parseIdList(readJson(StorageKey.favoriteVoices)),
  );
  const [recents, setRecents] = useState<string[]>(() => parseIdList(readJson(StorageKey.recentVoices)));
  const [current, setCurrent] = useState<string | null>(prefs.voice);
  const [pending, setPending] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [volume, setVolume] = useState<number>(VOLUME.initial);
  const [previewing, setPreviewing] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);
  const previewTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The catalogue, and the voices recommended for the current avatar.
  useEffect(() => {
    const controller = new AbortController();
    call(routes.voices.list, {}, { signal: controller.signal })
      .then((res) => setLoad({ status: 'ready', voices: res.voices }))
      .catch(() => {
        if (!controller.signal.aborted) setLoad({ status: 'error' });
      });
    if (prefs.avatar) {
      call(routes.voices.recommended, { params: { avatarId: prefs.avatar } }, { signal: controller.signal })
        .then((res) => setRecommendedIds(res.voices.map((v) => v.id)))
        .catch(() => setRecommendedIds(null));
    }
    return () => controller.abort();
  }, [attempt, prefs.avatar]);

  // Scroll lock, initial focus, focus returned on close.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    (search.current ?? panel.current?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    return () => {
      document.body.style.overflow = overflow;
      previous?.focus();
    };
  }, []);

  const stopPreview = useCallback(() => {
    clearTimeout(previewTimer.current);
    const el = audio.current;
    if (el) {
      el.pause();
      el.removeAttribute('src');
      el.load();
    }
    setPreviewing(null);
  }, []);

  useEffect(() => () => clearTimeout(previewTimer.current), []);

  useEffect(() => {
    if (audio.current) audio.current.volume = volume;
  }, [volume]);

  function togglePreview(voice: Voice) {
    if (previewing === voice.id) return stopPreview();
    stopPreview();
    const el = audio.current;
    if (!el) return;
    el.src = voice.previewUrl;
    el.volume = volume;
    setPreviewing(voice.id);
    // Spec §4: 10 s to load, then the preview stops silently.
    previewTimer.current = setTimeout(stopPreview, PREVIEW_LOAD_TIMEOUT_MS);
    el.play().catch(() => {
      // Autoplay refusal or an unplayable file: stop silently (spec §4), unless already replaced.
      if (el.getAttribute('src') === voice.previewUrl) stopPreview();
    });
  }

  const voices = useMemo(() => (load.status === 'ready' ? load.voices : []), [load]);
  const categories = useMemo(() => categoryFilters(voices), [voices]);
  const filtered = useMemo(
    () => filterVoices(voices, { category, language, query, favorites, recents, recommendedIds }),
    [voices, category, language, query, favorites, recents, recommendedIds],
  );
  const pages = pageCount(filtered.length);
  const currentPage = clampPage(page, filtered.length);
  const visible = pageOf(filtered, currentPage);
  const pendingVoice = pending ? voices.find((v) => v.id === pending) : undefined;

  function onFavorite(id: string) {
    const next = toggleFavorite(favorites, id);
    setFavorites(next);
    writeJson(StorageKey.favoriteVoices, next);
  }

  async function confirm() {
    if (!pendingVoice) return;
    setSaving(true);
    stopPreview();
    const id = pendingVoice.id;
    try {
      await call(routes.voices.select, { body: { voiceId: id, sessionId: sessionId ?? null } });
      if (userId) await savePreferences(userId, { voice: id, defaultVoiceId: id });
    } catch {
      // Kept on this device; the account keeps the previous choice until the next save.
      if (userId) usePreferences.getState().save(userId, { voice: id });
      toast(t('errors.preferencesSave'), 'error');
    }
    writeString(StorageKey.selectedVoice, id);
    const nextRecents = pushRecent(recents, id);
    setRecents(nextRecents);
    writeJson(StorageKey.recentVoices, nextRecents);
    setCurrent(id);
    setPending(null);
    setSaving(false);
    onConfirmed?.(pendingVoice);
    onClose();
  }

  const loadLimits = useCallback(
    async () => (userId ? (await subscriptionLimits.get(userId)).subscription : null),
    [userId],
  );

  /** A new custom voice joins the list and becomes the pending choice (VU-8). */
  function onUploaded({ voice }: VoiceUploadResult) {
    subscriptionLimits.invalidate();
    setLoad((l) => (l.status === 'ready' ? { status: 'ready', voices: [...l.voices, voice] } : l));
    setPending(voice.id);
  }

  async function deleteVoice(voice: Voice) {
    setDeleting(true);
    try {
      await call(routes.voiceUploads.remove, { params: { id: voice.id } });
      subscriptionLimits.invalidate();
      if (previewing === voice.id) stopPreview();
      setLoad((l) =>
        l.status === 'ready' ? { status: 'ready', voices: l.voices.filter((v) => v.id !== voice.id) } : l,
      );
      if (pending === voice.id) setPending(null);
      toast(t('voiceSelector.deleted'), 'success');
    } catch (error) {
      toast(errorText(error, t('voiceSelector.deleteFailed')), 'error');
    } finally {
      setDeleting(false);
      setConfirmingDelete(null);
    }
  }

  function onKeyDown(event: KeyboardEvent) {
    handleModalKeyDown(event, panel.current, onClose);
  }

  function categoryLabel(c: CategoryFilter): string {
    return ['femenina', 'masculina', 'neutral'].includes(c)
      ? t(`voices.categories.${c as 'femenina'}`)
      : t(`voiceSelector.categories.${c as 'todos'}`);
  }

  function languageLabel(l: LanguageFilter): string {
    return t(`voiceSelector.languages.${l === 'español' ? 'es' : l === 'inglés' ? 'en' : 'todos'}`);
  }

  const resetPage = () => setPage(1);

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={panel}
        className="dialog voice-selector"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
      >
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {t('chat.pickers.voiceTitle')}
          </h2>
          <button type="button" className="icon-button" onClick={onClose} aria-label={t('common.close')}>
            <Icon name="close" />
          </button>
        </div>

        <div className="voice-selector__controls">
          <input
            ref={search}
            type="search"
            className="input voice-selector__search"
            placeholder={t('voiceSelector.searchPlaceholder')}
            aria-label={t('voiceSelector.search')}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              resetPage();
            }}
          />
          <div className="voice-selector__row">
            <label className="voice-selector__field">
              <span>{t('voiceSelector.language')}</span>
              <select
                className="input"
                value={language}
                onChange={(e) => {
                  setLanguage(e.target.value as LanguageFilter);
                  resetPage();
                }}
              >
                {LANGUAGE_FILTERS.map((l) => (
                  <option key={l} value={l}>
                    {languageLabel(l)}
                  </option>
                ))}
              </select>
            </label>
            <label className="voice-selector__field voice-selector__volume">
              <span>
                <Icon name="volume" size={16} /> {t('voiceSelector.volume')}
              </span>
              <input
                type="range"
                min={VOLUME.min}
                max={VOLUME.max}
                step={VOLUME.step}
                value={volume}
                aria-valuetext={`${Math.round(volume * 100)}%`}
                onChange={(e) => setVolume(Number(e.target.value))}
              />
            </label>
          </div>
          <div className="voice-selector__chips" role="group" aria-label={t('voiceSelector.category')}>
            {categories.map((c) => (
              <button
                key={c}
                type="button"
                className="voice-chip"
                aria-pressed={category === c}
                onClick={() => {
                  setCategory(c);
                  resetPage();
                }}
              >
                {categoryLabel(c)}
              </button>
            ))}
          </div>
        </div>

        <div className="voice-selector__body" aria-live="polite" aria-busy={load.status === 'loading'}>
          {category === 'personalizadas' && load.status === 'ready' ? (
            <VoiceUploadPanel token={token} loadLimits={loadLimits} onUploaded={onUploaded} />
          ) : null}
          {load.status === 'loading' ? (
            <div className="voice-selector__state">
              <Spinner />
            </div>
          ) : load.status === 'error' ? (
            <div className="voice-selector__state" role="alert">
              <p>{t('voiceSelector.loadError')}</p>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => {
                  setLoad({ status: 'loading' });
                  setAttempt((a) => a + 1);
                }}
              >
                {t('voiceSelector.retry')}
              </button>
            </div>
          ) : category === 'personalizadas' && filtered.length === 0 ? (
            <div className="voice-selector__state">
              <Icon name="upload" />
              <p className="voice-selector__state-title">{t('voiceSelector.customEmptyTitle')}</p>
              <p>{t('voiceSelector.customEmpty')}</p>
            </div>
          ) : filtered.length === 0 ? (
            <div className="voice-selector__state">
              <p>
                {category === 'favoritas' && !query
                  ? t('voiceSelector.noFavorites')
                  : category === 'recientes' && !query
                    ? t('voiceSelector.noRecents')
                    : t('voiceSelector.noResults')}
              </p>
            </div>
          ) : (
            <ul className="voice-list" aria-label={t('voiceSelector.list')}>
              {visible.map((v) => {
                const isFav = favorites.includes(v.id);
                const isPlaying = previewing === v.id;
                const chosen = (pending ?? current) === v.id;
                return (
                  <li key={v.id} className="voice-card" data-selected={chosen} data-voice-id={v.id}>
                    <button
                      type="button"
                      className="voice-card__main"
                      aria-pressed={chosen}
                      onClick={() => setPending(v.id === current ? null : v.id)}
                    >
                      <span className="voice-card__name">
                        {v.name}
                        {current === v.id ? (
                          <span className="voice-card__badge">{t('voiceSelector.current')}</span>
                        ) : null}
                      </span>
                      <span className="voice-card__meta">
                        {v.isCustom ? `${t('voiceSelector.custom')} · ` : ''}
                        {categoryLabel(v.category)} · {languageLabel(v.language)}
                        {v.recommended ? ` · ${t('voiceSelector.recommended')}` : ''}
                      </span>
                      <span className="voice-card__desc">{v.description}</span>
                    </button>
                    <button
                      type="button"
                      className="icon-button voice-card__play"
                      aria-pressed={isPlaying}
                      aria-label={
                        isPlaying
                          ? t('voiceSelector.stopPreview', { name: v.name })
                          : t('voiceSelector.playPreview', { name: v.name })
                      }
                      onClick={() => togglePreview(v)}
                    >
                      <Icon name={isPlaying ? 'stop' : 'play'} />
                    </button>
                    <button
                      type="button"
                      className="icon-button voice-card__fav"
                      aria-pressed={isFav}
                      aria-label={t('voiceSelector.favorite', { name: v.name })}
                      onClick={() => onFavorite(v.id)}
                    >
                      <Icon name="heart" />
                    </button>
                    {v.isCustom ? (
                      <button
                        type="button"
                        className="icon-button voice-card__delete"
                        aria-label={t('voiceSelector.delete', { name: v.name })}
                        onClick={() => setConfirmingDelete(v.id)}
                      >
                        <Icon name="trash" />
                      </button>
                    ) : null}
                    {confirmingDelete === v.id ? (
                      <div
                        className="voice-card__confirm"
                        role="alertdialog"
                        aria-label={t('voiceSelector.delete', { name: v.name })}
                      >
                        <span>{t('voiceSelector.deleteConfirm', { name: v.name })}</span>
                        <button
                          type="button"
                          className="button button--ghost"
                          autoFocus
                          onClick={() => setConfirmingDelete(null)}
                        >
                          {t('common.cancel')}
                        </button>
                        <button
                          type="button"
                          className="button button--danger"
                          disabled={deleting}
                          onClick={() => void deleteVoice(v)}
                        >
                          {t('voiceSelector.deleteYes')}
                        </button>
                      </div>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </div>

        {load.status === 'ready' && pages > 1 ? (
          <nav className="voice-pager" aria-label={t('voiceSelector.pages')}>
            <button
              type="button"
              className="icon-button"
              aria-label={t('voiceSelector.previousPage')}
              disabled={currentPage <= 1}
              onClick={() => setPage(currentPage - 1)}
            >
              <Icon name="chevronLeft" />
            </button>
            {pageButtons(currentPage, pages).map((p) => (
              <button
                key={p}
                type="button"
                className="voice-pager__page"
                aria-current={p === currentPage ? 'page' : undefined}
                aria-label={t('voiceSelector.page', { page: p })}
                onClick={() => setPage(p)}
              >
                {p}
              </button>
            ))}
            <button
              type="button"
              className="icon-button"
              aria-label={t('voiceSelector.nextPage')}
              disabled={currentPage >= pages}
              onClick={() => setPage(currentPage + 1)}
            >
              <Icon name="chevronRight" />
            </button>
          </nav>
        ) : null}

        {pendingVoice ? (
          <div className="voice-confirm" role="region" aria-label={t('voiceSelector.confirmBar')}>
            <span className="voice-confirm__text">
              {t('voiceSelector.pending', { name: pendingVoice.name })}
            </span>
            <div className="voice-confirm__actions">
              <button type="button" className="button button--ghost" onClick={() => setPending(null)}>
                {t('common.cancel')}
              </button>
              <button
                type="button"
                className="button button--primary"
                disabled={saving}
                onClick={() => void confirm()}
              >
                {t('common.confirm')}
              </button>
            </div>
          </div>
        ) : null}

        <audio
          ref={audio}
          className="voice-selector__audio"
          data-testid="voice-preview-audio"
          data-playing={previewing ?? ''}
          preload="auto"
          onPlaying={() => clearTimeout(previewTimer.current)}
          onEnded={() => setPreviewing(null)}
          onError={() => {
            if (audio.current?.getAttribute('src')) stopPreview();
          }}
          hidden
        />
      </div>
    </div>
  );
}
