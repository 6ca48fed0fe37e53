import { type Address, type ArchivedStamp, formatLongDate } from '@medlocker/core';
import { Banner } from '../../ui/Banner.tsx';

/** An address on one line: '1 High Street, Leeds, LS1 1AA'. */
export function addressText(address: Address): string {
  return [address.line1, address.line2, address.line3, address.postTown, address.postcode].filter(Boolean).join(', ');
}

/** 'on 05 March 2024 by Sam Support' (SPEC §4: archived items show the archive date and user). */
export function archivedWhen(archived: ArchivedStamp): string {
  const by = archived.userDisplayName ? ` by ${archived.userDisplayName}` : '';
  return `on ${formatLongDate(archived.at)}${by}`;
}

/** The warning an archived business or group shows on each of its pages. */
export function ArchivedWarning({
  kind,
  archived,
  children,
}: {
  kind: 'business' | 'group';
  archived: ArchivedStamp;
  children?: React.ReactNode;
}) {
  return (
    <Banner tone="warning" title={`This ${kind} is archived`}>
      <p>
        It was archived {archivedWhen(archived)}. Archived {kind === 'business' ? 'businesses' : 'groups'} cannot be
        edited{kind === 'group' ? ', have businesses linked or users added' : ' and their settings are read-only'}.
      </p>
      {children}
    </Banner>
  );
}

/** A logo on its background colour, or a dash. */
export function LogoImage({ logo, alt }: { logo: { path: string; backgroundColor: string } | null; alt: string }) {
  if (!logo?.path) return <span>—</span>;
  return (
    <span className="logo-box" style={{ backgroundColor: logo.backgroundColor }}>
      <img src={logo.path} alt={alt} className="logo-box__img" />
    </span>
  );
}

/** One term and its value in a details block. */
export function DetailsItem({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="details__item">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Values one under another. */
export function Lines({ items }: { items: (string | null)[] }) {
  return (
    <ul className="plain-list">
      {items.filter(Boolean).map((i) => (
        <li key={i}>{i}</li>
      ))}
    </ul>
  );
}
