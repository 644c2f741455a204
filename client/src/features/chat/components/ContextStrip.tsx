import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';
import { contextView } from '../logic.ts';
import { useConversation } from '../store/conversation.ts';

/**
 * The session-context strip and, under it, the collapsible conversation-context panel of spec §2:
 * summary, topics, people and the last 3 key points (SPEC.md C-11). Emotion is shown once, by the
 * header's dominant-emotion badge (and the avatar's face), not repeated here.
 */
export function ContextStrip() {
  const { t } = useTranslation();
  const context = useConversation((s) => s.context);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const view = contextView(context);

  return (
    <section className="context" aria-label={t('chat.context.label')}>
      <div className="context__strip">
        {view.topics.slice(0, 2).map((topic) => (
          <span key={topic} className="chip chip--small">
            {topic}
          </span>
        ))}
        <button
          type="button"
          className="context__toggle"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          {t('chat.context.toggle')}
          <Icon name={open ? 'chevronUp' : 'chevronDown'} size={16} />
        </button>
      </div>
      <div id={panelId} className="context__panel" hidden={!open}>
        {view.hasContent ? (
          <dl className="context__list">
            {view.summary ? (
              <div>
                <dt>{t('chat.context.summary')}</dt>
                <dd>{view.summary}</dd>
              </div>
            ) : null}
            <div>
              <dt>{t('chat.context.topics')}</dt>
              <dd>{view.topics.length ? view.topics.join(', ') : t('chat.context.none')}</dd>
            </div>
            <div>
              <dt>{t('chat.context.people')}</dt>
              <dd>{view.people.length ? view.people.join(', ') : t('chat.context.none')}</dd>
            </div>
            <div>
              <dt>{t('chat.context.keyPoints')}</dt>
              <dd>
                {view.keyPoints.length ? (
                  <ul className="context__points">
                    {view.keyPoints.map((point, i) => (
                      <li key={`${i}-${point}`}>{point}</li>
                    ))}
                  </ul>
                ) : (
                  t('chat.context.none')
                )}
              </dd>
            </div>
          </dl>
        ) : (
          <p className="context__empty">{t('chat.context.empty')}</p>
        )}
      </div>
    </section>
  );
}
