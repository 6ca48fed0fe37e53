/**
 * Just enough MIME to read what nodemailer sends (the mail catcher's needs): headers, a text/plain and
 * an optional text/html part, attachments, quoted-printable or base64 bodies, nested multiparts.
 */
export type ParsedMail = {
  headers: Map<string, string>;
  subject: string;
  text: string;
  html?: string;
  attachments: ParsedAttachment[];
};

/** A part sent as an attachment (`Content-Disposition: attachment`), its content read as UTF-8 text. */
export type ParsedAttachment = { filename: string; contentType: string; content: string };

type Parts = { text?: string; html?: string; attachments: ParsedAttachment[] };

export function parseMail(raw: string): ParsedMail {
  const { headers, body } = splitEntity(raw);
  const parts = collectParts(headers, body);
  return {
    headers,
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: parts.text ?? '',
    ...(parts.html !== undefined ? { html: parts.html } : {}),
    attachments: parts.attachments,
  };
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines start with a blank.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function collectParts(headers: Map<string, string>, body: string): Parts {
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const out: Parts = { attachments: [] };
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitEntity(chunk.replace(/^\n/, ''));
      const found = collectParts(part.headers, part.body);
      out.text ??= found.text;
      out.html ??= found.html;
      out.attachments.push(...found.attachments);
    }
    return out;
  }
  const encoding = headers.get('content-transfer-encoding') ?? '7bit';
  const disposition = headers.get('content-disposition') ?? '';
  if (/^attachment/i.test(disposition)) {
    const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? /name="?([^";]+)"?/i.exec(contentType)?.[1];
    // Base64 keeps the CRLFs of a CSV; only the encoding's own line breaks go.
    const content =
      encoding.toLowerCase() === 'base64' ? decodeBody(body, encoding) : decodeBody(body, encoding).replace(/\n$/, '');
    return {
      attachments: [
        { filename: decodeHeader(filename ?? ''), contentType: contentType.split(';')[0]?.trim() ?? '', content },
      ],
    };
  }
  const decoded = decodeBody(body, encoding).replace(/\n$/, '');
  return /^text\/html/i.test(contentType) ? { html: decoded, attachments: [] } : { text: decoded, attachments: [] };
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const soft = body.replace(/=\n/g, '');
      const bytes: number[] = [];
      for (let i = 0; i < soft.length; i++) {
        const hex = soft.slice(i + 1, i + 3);
        if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
          bytes.push(Number.parseInt(hex, 16));
          i += 2;
        } else {
          bytes.push(...Buffer.from(soft[i] as string, 'utf8'));
        }
      }
      return Buffer.from(bytes).toString('utf8');
    }
    default:
      return body;
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=` / `=?UTF-8?B?...?=`), as nodemailer writes non-ASCII subjects. */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_, _charset: string, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeBody(data.replace(/_/g, ' '), 'quoted-printable'),
  );
}
