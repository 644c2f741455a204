import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routes, type Capability } from '@alma/protocol';
import { call } from '../../../lib/api.ts';
import './engine-facts.css';

type Load = { kind: 'loading' } | { kind: 'ready'; rows: Capability[] } | { kind: 'error' };

/**
 * For admins (SPEC.md H-3): what each engine is and, for what is missing, the one command or
 * variable that enables it — the rows of `/health`, the same the server prints at start-up.
 */
export function EngineFacts() {
  const { t } = useTranslation();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    call(routes.health.health, {}, { signal: controller.signal }).then(
      (health) => setLoad({ kind: 'ready', rows: health.capabilities }),
      () => {
        if (!controller.signal.aborted) setLoad({ kind: 'error' });
      },
    );
    return () => controller.abort();
  }, []);

  return (
    <section className="admin-box engine-facts" aria-labelledby="engine-facts-title">
      <h3 id="engine-facts-title" className="field__label">
        {t('dashboard.engines.title')}
      </h3>
      <p className="muted">{t('dashboard.engines.intro')}</p>
      {load.kind === 'loading' ? <p className="muted">{t('dashboard.engines.loading')}</p> : null}
      {load.kind === 'error' ? (
        <p className="alert alert--error" role="alert">
          {t('dashboard.engines.error')}
        </p>
      ) : null}
      {load.kind === 'ready' ? (
        <ul className="engine-facts__list">
          {load.rows.map((row) => (
            <li key={row.id} className="engine-facts__row" data-ok={row.ok}>
              <span className="engine-facts__name">{t(`dashboard.engines.ids.${row.id}`)}</span>
              <span className="engine-facts__state">
                <span className={`badge ${row.ok ? 'badge--ok' : 'badge--off'}`}>
                  {row.ok ? t('dashboard.engines.on') : t('dashboard.engines.off')}
                </span>{' '}
                {engineName(row, t)}
              </span>
              {row.enable ? (
                <span className="engine-facts__enable">
                  {t('dashboard.engines.enable')} <code>{row.enable}</code>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function engineName(
  row: Capability,
  t: (key: 'dashboard.engines.browser' | 'dashboard.engines.none') => string,
) {
  if (row.engine === 'browser') return t('dashboard.engines.browser');
  if (row.engine === 'none') return t('dashboard.engines.none');
  return row.engine;
}
