import { type AuditEntry, auditActionLabel, formatDateTime, isIsoDate, londonDayStart } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import {
  auditActionAtom,
  auditBusinessAtom,
  auditFromAtom,
  auditOrderAtom,
  auditPatientAtom,
  auditToAtom,
  auditUserAtom,
} from '../../state/audit.ts';
import { useHasSupportScope } from '../../state/session.ts';
import { textCodec, useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { TextField } from '../../ui/TextField.tsx';
import { CsvError, useCsvExport } from '../stats/csv-export.tsx';
import { NativeDateField } from '../stats/MonthField.tsx';
import { t } from './i18n/index.ts';

/** What an entry is about, in words: "patient 0190…", "order 0190…". */
const aboutOf = (e: AuditEntry) => (e.entityId ? `${e.entityType} ${e.entityId}` : e.entityType);

const columns = (): ListColumn<AuditEntry>[] => [
  { key: 'when', header: t('audit.column.when'), width: '10.5rem', render: (e) => formatDateTime(e.at) },
  {
    key: 'who',
    header: t('audit.column.who'),
    width: 'minmax(7rem, 1fr)',
    render: (e) => e.actorDisplay ?? t('audit.unknownActor'),
  },
  {
    key: 'what',
    header: t('audit.column.what'),
    width: 'minmax(9rem, 1.4fr)',
    render: (e) => <span title={e.action}>{auditActionLabel(e.action)}</span>,
  },
  { key: 'about', header: t('audit.column.about'), width: 'minmax(9rem, 1.4fr)', render: aboutOf },
  { key: 'patient', header: t('audit.column.patient'), width: 'minmax(6rem, 1fr)', render: (e) => e.patientId ?? '' },
  { key: 'where', header: t('audit.column.where'), width: '8rem', render: (e) => e.ip ?? '' },
];

/** The filters of the page as the API takes them: ids trimmed, London days to times. */
function filtersOf(f: Record<'patient' | 'user' | 'business' | 'order' | 'action' | 'from' | 'to', string>) {
  const id = (v: string) => v.trim() || undefined;
  return {
    patientId: id(f.patient),
    userId: id(f.user),
    businessId: id(f.business),
    orderId: id(f.order),
    action: id(f.action),
    since: isIsoDate(f.from) ? londonDayStart(f.from) : undefined,
    until: isIsoDate(f.to) ? londonDayStart(f.to, 1) : undefined,
  };
}

/**
 * `/audit`: the audit trail, newest first, found by patient (their orders too), user, business, order,
 * action and London days, every filter in the URL (`/audit?patient=…` is "who looked at this patient").
 * Support read every entry; a pharmacy Admin the entries of the businesses they administer. Export CSV
 * downloads what the filters find (at most 10,000 entries). Each search and export is itself audited.
 */
export function AuditTrail() {
  const support = useHasSupportScope();
  const [patient, setPatient] = useUrlState('patient', auditPatientAtom, textCodec);
  const [user, setUser] = useUrlState('user', auditUserAtom, textCodec);
  const [business, setBusiness] = useUrlState('business', auditBusinessAtom, textCodec);
  const [order, setOrder] = useUrlState('order', auditOrderAtom, textCodec);
  const [action, setAction] = useUrlState('action', auditActionAtom, textCodec);
  const [from, setFrom] = useUrlState('from', auditFromAtom, textCodec);
  const [to, setTo] = useUrlState('to', auditToAtom, textCodec);
  const filters = filtersOf({ patient, user, business, order, action, from, to });
  const csv = useCsvExport();
  const exportCsv = () =>
    csv.exportCsv(async () => {
      const file = await rpc('audit', 'export', filters);
      return { name: `audit-trail-${new Date().toISOString().slice(0, 10)}.csv`, text: file.csv };
    });
  const set = (setter: (v: string) => void) => (v: string) => setter(v);

  return (
    <ListPage
      title={t('audit.title')}
      lead={support ? t('audit.lead.support') : t('audit.lead.admin')}
      banner={<CsvError error={csv.error} />}
      filters={
        <>
          <TextField label={t('audit.filter.patient')} value={patient} onChange={set(setPatient)} />
          <TextField label={t('audit.filter.user')} value={user} onChange={set(setUser)} />
          {support && <TextField label={t('audit.filter.business')} value={business} onChange={set(setBusiness)} />}
          <TextField label={t('audit.filter.order')} value={order} onChange={set(setOrder)} />
          <TextField
            label={t('audit.filter.action')}
            placeholder={t('audit.filter.actionExample')}
            value={action}
            onChange={set(setAction)}
          />
          <NativeDateField
            type="date"
            label={t('audit.filter.from')}
            value={from}
            accepts={isIsoDate}
            onChange={setFrom}
          />
          <NativeDateField type="date" label={t('audit.filter.to')} value={to} accepts={isIsoDate} onChange={setTo} />
        </>
      }
      clearFilters={() => {
        for (const reset of [setPatient, setUser, setBusiness, setOrder, setAction, setFrom, setTo]) reset('');
      }}
      filtered={[patient, user, business, order, action, from, to].some((v) => v !== '')}
      query={rpcListQuery(['audit', 'search', JSON.stringify(filters)], 'entries', (_search, nextToken) => ({
        ...filters,
        nextToken,
      }))}
      actions={[
        {
          key: 'export',
          method: ['audit', 'export'],
          element: (
            <Button onPress={exportCsv} isDisabled={csv.exporting}>
              {csv.exporting ? t('audit.exporting') : t('audit.export')}
            </Button>
          ),
        },
      ]}
      label={t('audit.entries')}
      columns={columns()}
      emptyText={t('audit.empty')}
    />
  );
}
