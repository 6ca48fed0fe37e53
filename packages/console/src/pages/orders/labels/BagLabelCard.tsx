import { type BagLabel, code128Carries, formatDate } from '@medlocker/core';
import { code128, drawingSVG, qrcode } from 'bwip-js/browser';
import { useMemo } from 'react';
import { t } from './i18n/index.ts';

/** Black on white with quiet zones, as the PDF's (api areas/orders/label-pdf.ts). */
const colours = { backgroundcolor: 'FFFFFF', barcolor: '000000' } as const;

/**
 * One bag label (docs/decisions/orders.md, Bag labels): the reference, the patient's initials and
 * surname, the machine, the collect-by date, the barcode in Code 128 (when it can carry it) and as a
 * QR code, drawn as SVG by bwip-js at the label's size (styles.css, Bag labels).
 */
export function BagLabelCard({ label }: { label: BagLabel }) {
  const svgs = useMemo(
    () => ({
      code128: code128Carries(label.barcode)
        ? code128(
            {
              ...colours,
              bcid: 'code128',
              text: label.barcode,
              height: 12,
              includetext: true,
              textxalign: 'center',
              paddingwidth: 10,
              paddingheight: 2,
            },
            drawingSVG(),
          )
        : null,
      qr: qrcode({ ...colours, bcid: 'qrcode', text: label.barcode, padding: 4 }, drawingSVG()),
    }),
    [label.barcode],
  );
  return (
    <article
      className={`bag-label bag-label--${label.size}`}
      aria-label={t('labels.card.label', { reference: label.reference })}
    >
      <p className="bag-label__reference">{label.reference}</p>
      <p className="bag-label__patient">
        {label.patientInitials} {label.patientSurname}
      </p>
      <p>{label.machineName ?? t('labels.card.noMachine')}</p>
      <p>{t('labels.card.collectBy', { date: formatDate(label.collectBy) })}</p>
      {svgs.code128 ? (
        <Svg
          className="bag-label__code128"
          svg={svgs.code128}
          name={t('labels.card.code128', { barcode: label.barcode })}
        />
      ) : (
        <p>{label.barcode}</p>
      )}
      <Svg className="bag-label__qr" svg={svgs.qr} name={t('labels.card.qr', { barcode: label.barcode })} />
    </article>
  );
}

/** bwip-js's SVG markup: bars and glyphs as paths it drew itself from the barcode, no text or script of ours. */
function Svg({ svg, name, className }: { svg: string; name: string; className: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: bwip-js's own SVG (paths only), not user markup.
  return <div className={className} role="img" aria-label={name} dangerouslySetInnerHTML={{ __html: svg }} />;
}
