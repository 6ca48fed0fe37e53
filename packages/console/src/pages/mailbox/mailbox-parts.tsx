import { Fragment, type ReactNode } from 'react';
import type { Query } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { TitledSection } from '../../ui/Section.tsx';
import { t } from './i18n/index.ts';

/**
 * One half of the Mailbox page (emails, texts): its heading, its own Refresh, and what its query holds:
 * `offNote` when this kind of message does not come here (`isOn` false), `emptyText` when none has
 * come, else each message as `children` shows it.
 */
export function MailboxSection<D extends { messages: { id: string }[] }>({
  id,
  title,
  refreshLabel,
  query,
  isOn,
  offNote,
  emptyText,
  children,
}: {
  id: string;
  title: string;
  refreshLabel: string;
  query: Query<D>;
  isOn: (data: D) => boolean;
  offNote: string;
  emptyText: string;
  children: (message: D['messages'][number]) => ReactNode;
}) {
  return (
    <TitledSection
      id={id}
      className="mailbox__section"
      title={title}
      actions={<Button onClick={query.reload}>{refreshLabel}</Button>}
    >
      <QueryView query={query}>
        {(data) =>
          !isOn(data) ? (
            <Banner tone="info">{offNote}</Banner>
          ) : data.messages.length === 0 ? (
            <p>{emptyText}</p>
          ) : (
            <div className="mailbox">
              {data.messages.map((m) => (
                <Fragment key={m.id}>{children(m)}</Fragment>
              ))}
            </div>
          )
        }
      </QueryView>
    </TitledSection>
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
