import type { ReactNode } from 'react';
import { Button } from '../../ui/Button.tsx';
import { SectionHead } from '../../ui/Section.tsx';
import { t } from './i18n/index.ts';

/** One half of the Mailbox page (emails, texts): its heading, its own Refresh, and what it lists. */
export function MailboxSection({
  id,
  title,
  refreshLabel,
  onRefresh,
  children,
}: {
  id: string;
  title: string;
  refreshLabel: string;
  onRefresh: () => void;
  children: ReactNode;
}) {
  return (
    <section className="mailbox__section" aria-labelledby={id}>
      <SectionHead id={id} title={title} actions={<Button onClick={onRefresh}>{refreshLabel}</Button>} />
      {children}
    </section>
  );
}

/** The web addresses in a message, to follow (a reset link, a patient's short link). */
export function MessageLinks({ links }: { links: string[] }) {
  if (links.length === 0) return null;
  return (
    <ul className="mailbox__links" aria-label={t('mailbox.links')}>
      {links.map((link) => (
        <li key={link}>
          <a href={link}>{link}</a>
        </li>
      ))}
    </ul>
  );
}
