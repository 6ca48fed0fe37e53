import { type ReactNode, useState } from 'react';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { downloadCsv } from '../../ui/download.ts';
import { SectionHead } from '../../ui/Section.tsx';
import { t } from './i18n/index.ts';

/**
 * A stats page's CSV export: `exportCsv(make)` downloads the file `make` answers (loading it first if
 * it must); `exporting` meanwhile; why it could not be made, after.
 */
export function useCsvExport() {
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const exportCsv = async (make: () => { name: string; text: string } | Promise<{ name: string; text: string }>) => {
    setExporting(true);
    setError(null);
    try {
      const { name, text } = await make();
      downloadCsv(name, text);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setExporting(false);
    }
  };
  return { error, exporting, exportCsv };
}

/** Why the CSV could not be made. */
export function CsvError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <Banner tone="error" title={t('stats.csvError')}>
      {error}
    </Banner>
  );
}

/** A stats section's heading with its Export button, and why an export failed. */
export function StatsHead({
  id,
  title,
  lead,
  exportLabel,
  onExport,
  canExport,
  error,
}: {
  id: string;
  title: string;
  lead: ReactNode;
  exportLabel: string;
  onExport: () => void;
  canExport: boolean;
  error: string | null;
}) {
  return (
    <>
      <SectionHead
        id={id}
        title={title}
        lead={lead}
        actions={
          <Button onPress={onExport} isDisabled={!canExport}>
            {exportLabel}
          </Button>
        }
      />
      <CsvError error={error} />
    </>
  );
}
