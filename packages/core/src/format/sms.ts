import { limits } from '../limits.ts';
import { counted } from './count.ts';

/**
 * Characters of an SMS as the preview counts them: Unicode code points, so an emoji is one
 * letter, as a person would count it.
 */
export const smsLength = (text: string): number => [...text].length;

/** Pages of 160 characters an SMS takes; an empty message takes 0 (nothing is sent). */
export const smsPageCount = (text: string): number => Math.ceil(smsLength(text) / limits.smsPageLength);

/** The preview's caption, SPEC §2 wording: 'Example SMS (161 letters / 2 pages)', '(44 letters / 1 page)'. */
export const smsPreviewCaption = (text: string): string =>
  `Example SMS (${counted(smsLength(text), 'letter')} / ${counted(smsPageCount(text), 'page')})`;
