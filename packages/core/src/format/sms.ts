import { limits } from '../limits.ts';
import { counted } from './count.ts';

/**
 * Characters of an SMS as the preview counts them: Unicode code points, so an emoji is one
 * letter, as a person would count it.
 */
export const smsLength = (text: string): number => [...text].length;

/** The GSM 03.38 default alphabet: a text written only in it travels 7 bits a character. */
const gsmBasic = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** Its extension table: each of these takes two characters' room (an escape, then the sign). */
const gsmExtended = new Set('^{}\\[~]|€\f');

/**
 * How an SMS travels and how many parts it takes. In the GSM alphabet one part holds 160 characters,
 * and a longer text goes in parts of 153 (each carries a joining header); one character outside it
 * (Welsh ŵ, ŷ, â, an emoji) sends the whole text as UCS-2: 70 in one part, 67 a part after that,
 * counted in UTF-16 units, so an emoji takes two.
 */
export function smsParts(text: string): { encoding: 'GSM-7' | 'UCS-2'; units: number; parts: number } {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (gsmBasic.has(ch)) septets += 1;
    else if (gsmExtended.has(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  const [units, single, multi] = gsm ? [septets, limits.smsPageLength, 153] : [text.length, 70, 67];
  const parts = units === 0 ? 0 : units <= single ? 1 : Math.ceil(units / multi);
  return { encoding: gsm ? 'GSM-7' : 'UCS-2', units, parts };
}

/** Parts (pages) an SMS takes as the gateway sends it; an empty message takes 0 (nothing is sent). */
export const smsPageCount = (text: string): number => smsParts(text).parts;

/**
 * The preview's caption, SPEC §2 wording: 'Example SMS (161 letters / 2 pages)', '(44 letters / 1 page)';
 * a text that must go as Unicode (a Welsh ŵ) says so, since that is why it takes more pages.
 */
export function smsPreviewCaption(text: string): string {
  const { encoding, parts } = smsParts(text);
  const unicode = encoding === 'UCS-2' && text !== '' ? ', sent as Unicode' : '';
  return `Example SMS (${counted(smsLength(text), 'letter')} / ${counted(parts, 'page')}${unicode})`;
}
