import {
  type RetentionCounts,
  type RetentionField,
  type RetentionPolicy,
  retentionBounds,
  retentionFields,
  retentionKindLabels,
} from '@medlocker/core';
import { useState } from 'react';
import { Banner } from '../../ui/Banner.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';

/*
 * The retention periods as a form, and what the next nightly run would remove (docs/decisions/retention.md):
 * shared by Global Settings and a business's Retention settings.
 */

/** Each period's label, with its unit. */
export const periodLabel = (field: RetentionField) => t(`retention.period.${field}` as const);

/** Each period's unit, for the read-only lists. */
export const periodUnit = (field: RetentionField) => (field === 'patientYears' ? 'years' : 'days');

export type PeriodTexts = Record<RetentionField, string>;

export const textsOf = (values: Record<RetentionField, number | null>): PeriodTexts =>
  Object.fromEntries(retentionFields.map((f) => [f, values[f] === null ? '' : String(values[f])])) as PeriodTexts;

/** A typed period: a number when it is one (the server checks the range), else the words as typed. */
export const periodValue = (text: string): number | string => (/^\s*\d+\s*$/.test(text) ? Number(text) : text);

/** The five period fields; `placeholders` shows what a blank field means (a business's product values). */
export function PeriodFields({
  texts,
  onChange,
  placeholders,
  isDisabled,
}: {
  texts: PeriodTexts;
  onChange: (texts: PeriodTexts) => void;
  placeholders?: RetentionPolicy;
  isDisabled?: boolean;
}) {
  return (
    <>
      {retentionFields.map((field) => (
        <TextField
          key={field}
          label={periodLabel(field)}
          name={field}
          inputMode="numeric"
          value={texts[field]}
          onChange={(value) => onChange({ ...texts, [field]: value })}
          placeholder={placeholders ? String(placeholders[field]) : undefined}
          isDisabled={isDisabled}
          description={
            placeholders
              ? t('retention.rangeOrProduct', { ...retentionBounds[field], product: placeholders[field] })
              : t('retention.range', retentionBounds[field])
          }
        />
      ))}
    </>
  );
}

/**
 * The periods as a form that saves in place and says so: `send` saves the typed texts, `saved` is the
 * notice after it; `placeholders` and `isDisabled` as in `PeriodFields`.
 */
export function PeriodsForm({
  initial,
  send,
  saved,
  submitLabel,
  onSaved,
  placeholders,
  isDisabled,
}: {
  initial: PeriodTexts;
  send: (texts: PeriodTexts) => Promise<unknown>;
  saved: string;
  submitLabel: string;
  onSaved: () => void;
  placeholders?: RetentionPolicy;
  isDisabled?: boolean;
}) {
  const [texts, setTexts] = useState(initial);
  const [notice, setNotice] = useState<string>();
  const state = useSaveState();
  const save = async () => {
    setNotice(undefined);
    state.start();
    try {
      await send(texts);
      state.setPending(false);
      setNotice(saved);
      onSaved();
    } catch (e) {
      state.fail(e);
    }
  };
  return (
    <>
      {notice && <Banner tone="success">{notice}</Banner>}
      <PageForm state={state} save={save} submitLabel={submitLabel} isDisabled={isDisabled}>
        <PeriodFields texts={texts} onChange={setTexts} placeholders={placeholders} isDisabled={isDisabled} />
      </PageForm>
    </>
  );
}

/** What the next nightly run would remove, by kind. */
export function RetentionPreview({ counts, title }: { counts: RetentionCounts; title: string }) {
  const kinds = Object.keys(retentionKindLabels) as (keyof RetentionCounts)[];
  return (
    <section aria-label={title}>
      <h3 className="section-title">{title}</h3>
      <dl className="details">
        {kinds.map((kind) => (
          <DetailsItem key={kind} term={retentionKindLabels[kind]}>
            {counts[kind].toLocaleString('en-GB')}
          </DetailsItem>
        ))}
      </dl>
    </section>
  );
}
