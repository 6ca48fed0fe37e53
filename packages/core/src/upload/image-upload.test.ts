import { describe, expect, it } from 'bun:test';
import { imageKindOf, imageUploadErrors } from './image-upload.ts';

describe('imageKindOf', () => {
  it('knows JPEG and PNG by their first bytes', () => {
    expect(imageKindOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('jpeg');
    expect(imageKindOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('png');
  });

  it('calls anything else other, including GIFs, text and short input', () => {
    expect(imageKindOf(new TextEncoder().encode('GIF89a'))).toBe('other');
    expect(imageKindOf(new TextEncoder().encode('<svg>'))).toBe('other');
    expect(imageKindOf(new Uint8Array([0xff, 0xd8]))).toBe('other');
    expect(imageKindOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe('other');
    expect(imageKindOf(new Uint8Array())).toBe('other');
  });
});

describe('imageUploadErrors', () => {
  it('accepts a JPEG or PNG of exactly 256 KB', () => {
    expect(imageUploadErrors({ type: 'image/png', size: 262_144 })).toEqual([]);
    expect(imageUploadErrors({ type: 'image/jpeg', size: 1 })).toEqual([]);
  });

  it('refuses other types with the accepted extensions', () => {
    expect(imageUploadErrors({ type: 'image/gif', size: 10 }, 'logo')).toEqual([
      {
        path: 'logo',
        id: 'unacceptable-extension',
        message: 'Only the following extensions are accepted: .jpg, .jpeg, .png',
      },
    ]);
  });

  it('refuses a file one byte over with its size rounded up', () => {
    expect(imageUploadErrors({ type: 'image/png', size: 262_145 })).toEqual([
      { path: '', id: 'unacceptable-size', message: 'Only files under 256 KB are accepted, your file has 257 KB.' },
    ]);
  });

  it('reports both problems at once', () => {
    expect(imageUploadErrors({ type: 'image/svg+xml', size: 3 * 1024 * 1024 }).map((e) => e.message)).toEqual([
      'Only the following extensions are accepted: .jpg, .jpeg, .png',
      'Only files under 256 KB are accepted, your file has 3.0 MB.',
    ]);
  });
});
