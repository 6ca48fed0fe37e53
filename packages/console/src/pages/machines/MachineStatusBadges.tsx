import type { Level } from '@medlocker/core';
import { t } from './i18n/index.ts';

/** Online / Offline, plus Out of order and Archived, as short labelled badges. */
export function ConnectionBadge({
  online,
  outOfOrder,
  archived,
}: {
  online: boolean;
  outOfOrder: boolean;
  archived: boolean;
}) {
  return (
    <span className="badges">
      <span className={`badge badge--${online ? 'ok' : 'off'}`}>
        {online ? t('machines.online') : t('machines.offline')}
      </span>
      {outOfOrder && <span className="badge badge--warn">{t('machines.outOfOrder')}</span>}
      {archived && <span className="badge badge--off">{t('machines.archived')}</span>}
    </span>
  );
}

/** A machine event's level as a coloured badge. */
export function LevelBadge({ level }: { level: Level }) {
  const tone = level === 'critical' || level === 'error' ? 'bad' : level === 'warn' ? 'warn' : 'info';
  return <span className={`badge badge--${tone}`}>{level}</span>;
}
