import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/Icon.tsx';
import { pageButtons } from './logic.ts';

/** Previous, at most five page numbers, next (spec §2). */
export function VoicePager({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav className="voice-pager" aria-label={t('voiceSelector.pages')}>
      <button
        type="button"
        className="icon-button"
        aria-label={t('voiceSelector.previousPage')}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        <Icon name="chevronLeft" />
      </button>
      {pageButtons(page, pages).map((p) => (
        <button
          key={p}
          type="button"
          className="voice-pager__page"
          aria-current={p === page ? 'page' : undefined}
          aria-label={t('voiceSelector.page', { page: p })}
          onClick={() => onPage(p)}
        >
          {p}
        </button>
      ))}
      <button
        type="button"
        className="icon-button"
        aria-label={t('voiceSelector.nextPage')}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        <Icon name="chevronRight" />
      </button>
    </nav>
  );
}
