import type { Level } from '@medlocker/core';

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
      <span className={`badge badge--${online ? 'ok' : 'off'}`}>{online ? 'Online' : 'Offline'}</span>
      {outOfOrder && <span className="badge badge--warn">Out of order</span>}
      {archived && <span className="badge badge--off">Archived</span>}
    </span>
  );
}

/** A machine event's level as a coloured badge. */
export function LevelBadge({ level }: { level: Level }) {
  const tone = level === 'critical' || level === 'error' ? 'bad' : level === 'warn' ? 'warn' : 'info';
  return <span className={`badge badge--${tone}`}>{level}</span>;
}
