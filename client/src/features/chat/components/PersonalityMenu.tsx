import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERSONALITIES, type Personality } from '@alma/protocol';
import { Icon } from '../../../components/ui/Icon.tsx';
import { Popover } from '../../../components/ui/Popover.tsx';
import { matchesSearch } from '../logic.ts';
import { useConversation } from '../store/conversation.ts';

/**
 * The personality badge and its menu (spec §2, §4): search the four personalities, pick one, then
 * confirm; the store posts it (online) or applies it locally (offline).
 */
export function PersonalityMenu() {
  const { t } = useTranslation();
  const personality = useConversation((s) => s.personality);
  const name = t(`personalities.${personality}`);
  return (
    <Popover
      label={t('chat.personality.menu', { personality: name })}
      panelLabel={t('chat.personality.title')}
      triggerClassName="badge-button"
      className="personality-menu"
      trigger={
        <>
          <Icon name="smile" size={16} />
          <span className="badge-button__text">{name}</span>
        </>
      }
    >
      {(close) => <PersonalityPanel onDone={close} />}
    </Popover>
  );
}

function PersonalityPanel({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const current = useConversation((s) => s.personality);
  const infos = useConversation((s) => s.personalities);
  const load = useConversation((s) => s.loadPersonalities);
  const change = useConversation((s) => s.changePersonality);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Personality | null>(null);
  const searchId = useId();

  useEffect(() => {
    if (Object.keys(infos).length === 0) void load();
  }, [infos, load]);

  if (chosen) {
    const name = t(`personalities.${chosen}`);
    return (
      <div className="personality-confirm">
        <p className="personality-confirm__text">{t('chat.personality.confirm', { personality: name })}</p>
        {infos[chosen]?.style ? <p className="personality-confirm__style">{infos[chosen].style}</p> : null}
        <div className="button-row">
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => setChosen(null)}
          >
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button button--small button--primary"
            autoFocus
            onClick={() => {
              void change(chosen);
              onDone();
            }}
          >
            {t('chat.personality.apply')}
          </button>
        </div>
      </div>
    );
  }

  const items = PERSONALITIES.filter((p) =>
    matchesSearch(query, [t(`personalities.${p}`), infos[p]?.name, infos[p]?.style, infos[p]?.context]),
  );

  return (
    <div className="personality-panel">
      <label htmlFor={searchId} className="visually-hidden">
        {t('chat.personality.search')}
      </label>
      <input
        id={searchId}
        type="search"
        className="popover__search"
        placeholder={t('chat.personality.search')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul className="popover__list" aria-label={t('chat.personality.title')}>
        {items.map((p) => (
          <li key={p}>
            <button
              type="button"
              className="popover__item"
              aria-pressed={p === current}
              onClick={() => (p === current ? onDone() : setChosen(p))}
            >
              <span className="popover__item-title">
                {t(`personalities.${p}`)}
                {p === current ? <Icon name="check" size={16} /> : null}
              </span>
              {infos[p]?.style ? <span className="popover__item-text">{infos[p].style}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {items.length === 0 ? <p className="popover__empty">{t('chat.personality.noMatch')}</p> : null}
    </div>
  );
}
