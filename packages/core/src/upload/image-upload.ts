import { formatFileSize } from '../format/file-size.ts';
import { limits } from '../limits.ts';
import { type ValidationError, validationMessage } from '../validation/catalogue.ts';

/** What the first bytes of a file say it is, whatever its name or declared type. */
export type ImageKind = 'jpeg' | 'png' | 'other';

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Sniffs a file's first bytes (8 are enough): JPEG starts FF D8 FF, PNG with its 8-byte signature.
 * The server must check this too: a browser's declared type is whatever the file name says.
 */
export function imageKindOf(bytes: Uint8Array): ImageKind {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && pngSignature.every((b, i) => bytes[i] === b)) return 'png';
  return 'other';
}

/** The file facts the upload rules need; a browser `File` has them. */
export type UploadCandidate = { type: string; size: number };

/**
 * SPEC §5 upload: JPEG or PNG ('Only the following extensions are accepted: .jpg, .jpeg, .png',
 * unacceptable-extension) under 262144 bytes ('Only files under 256 KB are accepted, your file has
 * 300 KB.', unacceptable-size). Returns every problem, empty when the file may go.
 */
export function imageUploadErrors(file: UploadCandidate, path = ''): ValidationError[] {
  const errors: ValidationError[] = [];
  if (!(limits.imageMimeTypes as readonly string[]).includes(file.type)) {
    errors.push({
      path,
      id: 'unacceptable-extension',
      message: validationMessage.unacceptableExtension(limits.imageExtensions),
    });
  }
  if (file.size > limits.imageMaxBytes) {
    errors.push({
      path,
      id: 'unacceptable-size',
      message: validationMessage.unacceptableSize(formatFileSize(file.size)),
    });
  }
  return errors;
}
