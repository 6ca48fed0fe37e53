import { formatFileSize, imageUploadErrors, type Logo, limits } from '@medlocker/core';
import { Button } from '../../ui/Button.tsx';
import { ColorPicker } from '../../ui/ColorPicker.tsx';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { FileButton } from '../../ui/FileButton.tsx';
import { t } from './i18n/index.ts';

/** The logo as being edited: what was saved, a newly chosen image, or the saved one removed. */
export type LogoDraft = {
  saved: Logo | null;
  /** A chosen image not yet uploaded. */
  chosen: { dataUrl: string; name: string; size: number } | null;
  removed: boolean;
  backgroundColor: string;
};

export const logoDraftOf = (saved: Logo | null): LogoDraft => ({
  saved,
  chosen: null,
  removed: false,
  backgroundColor: saved?.backgroundColor ?? '#FFFFFF',
});

const { width, height } = limits.logoRecommendedSize;
const maxSize = formatFileSize(limits.imageMaxBytes);

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(t('groups.logo.unreadable')));
    reader.readAsDataURL(file);
  });
}

/**
 * SPEC §4/§5 logo: choose a JPEG or PNG up to 256 KB (checked here with core's rule, and again by
 * the server), see it on its background colour, pick the colour, or remove the logo.
 */
export function LogoField({
  draft,
  onChange,
  errors,
  onErrors,
  isDisabled,
}: {
  draft: LogoDraft;
  onChange: (draft: LogoDraft) => void;
  errors: string[];
  onErrors: (messages: string[]) => void;
  isDisabled?: boolean;
}) {
  const shown = draft.chosen?.dataUrl ?? (draft.removed ? null : (draft.saved?.path ?? null));

  const choose = async (file: File) => {
    const problems = imageUploadErrors(file);
    if (problems.length > 0) {
      onErrors(problems.map((p) => p.message));
      return;
    }
    try {
      const dataUrl = await readAsDataUrl(file);
      onErrors([]);
      onChange({ ...draft, chosen: { dataUrl, name: file.name, size: file.size }, removed: false });
    } catch (e) {
      onErrors([e instanceof Error ? e.message : t('groups.logo.unreadable')]);
    }
  };

  return (
    <Fieldset legend={t('groups.logo.legend')} className="logo-field">
      <p className="field__description" id="logo-hint">
        {t('groups.logo.hint', { types: t('groups.logo.types'), maxSize, width, height })}
      </p>
      <LogoPreview draft={draft} shown={shown} />
      {errors.length > 0 && (
        <div className="field__error" role="alert">
          {errors.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
      <div className="logo-field__actions">
        <FileButton
          acceptedFileTypes={[...limits.imageMimeTypes]}
          onSelect={(f) => void choose(f)}
          isDisabled={isDisabled}
        >
          {t('groups.logo.choose')}
        </FileButton>
        {shown && (
          <Button
            variant="quiet"
            onPress={() => {
              onErrors([]);
              onChange({ ...draft, chosen: null, removed: Boolean(draft.saved) });
            }}
            isDisabled={isDisabled}
          >
            {t('groups.logo.remove')}
          </Button>
        )}
      </div>
      <ColorPicker
        label={t('groups.logo.background')}
        value={draft.backgroundColor}
        onChange={(hex) => onChange({ ...draft, backgroundColor: hex })}
        description={t('groups.logo.backgroundHelp')}
        isDisabled={isDisabled}
      />
    </Fieldset>
  );
}

/** The logo on its background colour (or "No logo"), and the file chosen but not yet uploaded. */
function LogoPreview({ draft, shown }: { draft: LogoDraft; shown: string | null }) {
  return (
    <>
      <div className="logo-field__preview" style={{ backgroundColor: draft.backgroundColor }}>
        {shown ? (
          <img src={shown} alt={t('groups.logo.preview')} className="logo-box__img" />
        ) : (
          <span className="logo-field__none">{t('groups.logo.none')}</span>
        )}
      </div>
      {draft.chosen && (
        <p className="field__description">
          {t('groups.logo.chosen', { name: draft.chosen.name, size: formatFileSize(draft.chosen.size) })}
        </p>
      )}
    </>
  );
}
