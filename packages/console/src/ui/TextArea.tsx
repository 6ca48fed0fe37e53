import { TextArea as AriaTextArea } from 'react-aria-components';
import { TextFieldFrame, type TextFieldFrameProps } from './field-parts.tsx';

export type TextAreaProps = TextFieldFrameProps & { errorMessage?: string; rows?: number };

/** A labelled multi-line text input with an optional description and its error message beneath. */
export function TextArea({ rows = 3, ...props }: TextAreaProps) {
  return (
    <TextFieldFrame {...props}>
      <AriaTextArea className="field__input field__textarea" rows={rows} />
    </TextFieldFrame>
  );
}
