import type { ReactNode } from 'react';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';

/** The heading of a settings page, with the way back to the settings index. */
export function SettingsHeader({ title, children }: { title: string; children?: ReactNode }) {
  const { business } = useBusiness();
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href={`/businesses/${encodeURIComponent(business.id)}/settings`}>Settings</Link>
        <span aria-hidden="true"> / </span>
        <span>{title}</span>
      </nav>
      <h2 className="section-title">{title}</h2>
      {children}
    </>
  );
}

/** SPEC §4: an archived business's settings are read-only. */
export function ReadOnlyNotice({ archived }: { archived: boolean }) {
  if (!archived) return null;
  return <Banner tone="info">This business is archived, so its settings are read-only.</Banner>;
}
