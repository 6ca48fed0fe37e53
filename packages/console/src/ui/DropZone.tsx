import type { ReactNode } from 'react';
import { DropZone as AriaDropZone, FileTrigger, Text } from 'react-aria-components';
import { Button } from './Button.tsx';
import { t } from './i18n/index.ts';

export type DropZoneProps = {
  /** What the area is for, e.g. 'Patient CSV file'. */
  label: string;
  /** MIME types or extensions, e.g. ['text/csv', '.csv']. */
  acceptedFileTypes?: string[];
  onFile: (file: File) => void;
  buttonLabel?: string;
  description?: ReactNode;
  isDisabled?: boolean;
};

/**
 * A file-drop upload area (SPEC §2): drop a file on it ('Drop the file here to upload') or press the
 * button to choose one. Keyboard and screen-reader users get the button; dropping is a shortcut.
 */
export function DropZone({
  label,
  acceptedFileTypes,
  onFile,
  buttonLabel = t('ui.dropZone.chooseFile'),
  description,
  isDisabled,
}: DropZoneProps) {
  return (
    <AriaDropZone
      aria-label={label}
      className="dropzone"
      isDisabled={isDisabled}
      getDropOperation={(types) =>
        types.has('Files') || [...(acceptedFileTypes ?? [])].some((type) => types.has(type)) || !acceptedFileTypes
          ? 'copy'
          : 'cancel'
      }
      onDrop={async (event) => {
        for (const item of event.items) {
          if (item.kind === 'file') {
            onFile(await item.getFile());
            return;
          }
        }
      }}
    >
      {({ isDropTarget }) => (
        <>
          <Text slot="label" className="dropzone__text">
            {isDropTarget ? t('ui.dropZone.dropHere') : t('ui.dropZone.dropHereOr')}
          </Text>
          <FileTrigger
            acceptedFileTypes={acceptedFileTypes}
            onSelect={(files) => {
              const file = files?.[0];
              if (file) onFile(file);
            }}
          >
            <Button isDisabled={isDisabled}>{buttonLabel}</Button>
          </FileTrigger>
          {description && <p className="field__description">{description}</p>}
        </>
      )}
    </AriaDropZone>
  );
}
