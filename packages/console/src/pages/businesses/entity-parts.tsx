import { type Address, type ArchivedStamp, formatLongDate } from '@medlocker/core';
import { useState } from 'react';
import { Outlet, useLocation, useSearchParams } from 'react-router';
import { resourcePath } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { type MethodRef, useMayCall } from '../../state/access.ts';
import { useLivePush, useLiveSubscription } from '../../state/live.ts';
import { type Resource, useAdministers } from '../../state/reach.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading, Page } from '../../ui/Page.tsx';
import { TabLinks } from '../../ui/Tabs.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';

/** An address on one line: '1 High Street, Leeds, LS1 1AA'. */
export function addressText(address: Address): string {
  return [address.line1, address.line2, address.line3, address.postTown, address.postcode].filter(Boolean).join(', ');
}

/** 'on 05 March 2024 by Sam Support' (SPEC §4: archived items show the archive date and user). */
export function archivedWhen(archived: ArchivedStamp): string {
  const date = formatLongDate(archived.at);
  return archived.userDisplayName
    ? t('businesses.archivedOnBy', { date, user: archived.userDisplayName })
    : t('businesses.archivedOn', { date });
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
    <Banner tone="warning" title={t(`businesses.archivedWarning.${kind}.title`)}>
      <p>{t(`businesses.archivedWarning.${kind}.body`, { when: archivedWhen(archived) })}</p>
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

/**
 * The Details section of a business or group: its success notice, the Archive / Unarchive button, the
 * details themselves (`children`) and the confirmation (SPEC §4: archiving asks first).
 */
export function ArchivableDetails({
  noun,
  name,
  archived,
  setArchived,
  archiveMethod,
  reload,
  warning,
  children,
}: {
  noun: 'business' | 'group';
  name: string;
  archived: boolean;
  /** Archives (true) or unarchives (false) on the server. */
  setArchived: (archive: boolean) => Promise<unknown>;
  /** The contract method behind Archive: the button shows only to who may call it. */
  archiveMethod: MethodRef;
  reload: () => void;
  /** Said after the question when archiving. */
  warning?: string;
  children: React.ReactNode;
}) {
  const notice = useFlashNotice();
  const [confirming, setConfirming] = useState(false);
  const { pending, error, setError, run } = useAction();
  const [done, setDone] = useState<string>();
  const mayArchive = useMayCall(archiveMethod);
  const verb = archived ? 'unarchive' : 'archive';

  const toggle = () =>
    run(async () => {
      await setArchived(!archived);
      setDone(t(`businesses.entity.${noun}.${verb}d`));
      setConfirming(false);
      reload();
    });

  const message = done ?? notice;
  return (
    <>
      {message && <Banner tone="success">{message}</Banner>}
      <div className="section-head">
        <h2 className="section-title">{t('businesses.entity.details')}</h2>
        {mayArchive && (
          <Button
            variant={archived ? 'secondary' : 'danger'}
            onPress={() => {
              setError(undefined);
              setConfirming(true);
            }}
          >
            {archived ? t('businesses.entity.unarchive') : t('businesses.entity.archive')}
          </Button>
        )}
      </div>
      {children}
      <ConfirmDialog
        title={t(`businesses.entity.${noun}.${verb}Title`)}
        isOpen={confirming}
        onOpenChange={(open) => !open && !pending && setConfirming(false)}
        cancelLabel={t('businesses.cancel')}
        confirmLabel={archived ? t('businesses.entity.unarchive') : t('businesses.entity.archive')}
        tone={archived ? 'primary' : 'danger'}
        onConfirm={() => void toggle()}
        isPending={pending}
        error={error}
      >
        <p>{`${t(`businesses.entity.${noun}.${verb}Question`, { name })}${archived || !warning ? '' : ` ${warning}`}`}</p>
      </ConfirmDialog>
    </>
  );
}

/**
 * The frame of a business's or a group's pages (its own page and below): its name, when archived the
 * warning, the tabs (the first one, 'details', is its own page), and the page under it, given `context`.
 * While the entity loads: 'Loading', or the error with 'Try again'. Archive pushes from other consoles
 * reload it live.
 */
export function ArchivableLayout<E extends { name: string; archived: ArchivedStamp | null }, C>({
  reach,
  entity,
  error,
  reload,
  tabs: allTabs,
  context,
}: {
  reach: Resource;
  entity: E | undefined;
  error: unknown;
  reload: () => void;
  tabs: { id: string; label: string }[];
  context: (entity: E) => C;
}) {
  const { kind } = reach;
  const base = resourcePath(kind, reach.id);
  const location = useLocation();
  useLiveArchive(kind === 'business' ? { businessId: reach.id } : { groupId: reach.id }, reload);
  // Editing is for support and the business's or group's Admins: nobody else is offered a form they cannot save.
  const manages = useAdministers(reach);
  const tabs = manages ? allTabs : allTabs.filter((tab) => tab.id !== 'edit');
  const label = t(`businesses.entity.${kind}.label`);
  if (!entity) {
    return <Page title={label}>{error ? <LoadError error={error} onRetry={reload} /> : <Loading />}</Page>;
  }
  const rest = location.pathname.slice(base.length).split('/')[1] ?? '';
  const selected = tabs.some((t) => t.id === rest && t.id !== 'details') ? rest : 'details';
  return (
    <Page title={entity.name} lead={entity.archived ? t(`businesses.entity.${kind}.archivedLead`) : undefined}>
      {entity.archived && <ArchivedWarning kind={kind} archived={entity.archived} />}
      <TabLinks
        label={label}
        selectedId={selected}
        tabs={tabs.map((t) => ({ ...t, href: t.id === 'details' ? base : `${base}/${t.id}` }))}
      />
      <Outlet context={context(entity)} />
    </Page>
  );
}

/** A list's Active and Archived tabs (`?archived=true` on `base`), and whether Archived is open. */
export function useArchivedTabs(label: string, base: string) {
  const [params] = useSearchParams();
  const archived = params.get('archived') === 'true';
  const tabs = (
    <TabLinks
      label={label}
      selectedId={archived ? 'archived' : 'active'}
      tabs={[
        { id: 'active', label: t('businesses.entity.active'), href: base },
        { id: 'archived', label: t('businesses.entity.archived'), href: `${base}?archived=true` },
      ]}
    />
  );
  return { archived, tabs };
}

/** The Edit tab of a business or a group: its heading over the form. */
export function EditSection({ children }: { children: React.ReactNode }) {
  return (
    <>
      <h2 className="section-title">{t('businesses.entity.edit')}</h2>
      {children}
    </>
  );
}

/**
 * A business's or a group's pages follow its archiving done elsewhere (SPEC §4 live updates): another
 * console's Archive or Unarchive reloads it, so the warning comes and goes without a reload.
 */
function useLiveArchive(topic: { businessId: string } | { groupId: string }, reload: () => void) {
  useLiveSubscription(topic);
  useLivePush((push) => {
    if (push.action !== 'archived' && push.action !== 'unarchived') return;
    const same =
      'businessId' in topic ? push.params.businessId === topic.businessId : push.params.groupId === topic.groupId;
    if (same) reload();
  });
}
