import type { ReactNode } from 'react';
import { FileTrigger } from 'react-aria-components';
import { Button, type ButtonProps } from './Button.tsx';

export type FileButtonProps = {
  children: ReactNode;
  /** MIME types the file chooser offers, e.g. ['image/png', 'image/jpeg']. */
  acceptedFileTypes?: string[];
  onSelect: (file: File) => void;
  variant?: ButtonProps['variant'];
  isDisabled?: boolean;
};

/** A button that opens the file chooser and hands over the one file picked. */
export function FileButton({ children, acceptedFileTypes, onSelect, variant, isDisabled }: FileButtonProps) {
  return (
    <FileTrigger
      acceptedFileTypes={acceptedFileTypes}
      onSelect={(files) => {
        const file = files?.[0];
        if (file) onSelect(file);
      }}
    >
      <Button variant={variant} isDisabled={isDisabled}>
        {children}
      </Button>
    </FileTrigger>
  );
}
