/** A mail as MIME (what the SMTP receiver and Mailgun's "mime" variant get) made into an InboundMessage (mailparser). */
import { type AddressObject, simpleParser } from 'mailparser';
import type { InboundMessage } from '../commands/receiveVisitorMail';

/** The first address of a From (or To) header, lower case. */
function firstAddress(field: AddressObject | AddressObject[] | undefined): string {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  for (const object of list) for (const entry of object.value) if (entry.address) return entry.address.toLowerCase();
  return '';
}

/** Header lines as name (lower case) → value as written, the first of each name. */
export function headersOf(lines: readonly { key: string; line: string }[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, line } of lines) {
    const name = key.toLowerCase();
    if (name in headers) continue;
    const colon = line.indexOf(':');
    headers[name] = (colon >= 0 ? line.slice(colon + 1) : line).replace(/\r?\n[ \t]+/g, ' ').trim();
  }
  return headers;
}

export async function parseMime(raw: Buffer, envelopeFrom?: string): Promise<InboundMessage> {
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
  return {
    messageId: (parsed.messageId ?? '').replace(/^<|>$/g, ''),
    from: firstAddress(parsed.from),
    envelopeFrom,
    headers: headersOf(parsed.headerLines),
    // mailparser writes the text of an HTML-only mail from its HTML.
    text: parsed.text ?? '',
    attachments: parsed.attachments
      .filter((a) => a.contentDisposition !== 'inline' || Boolean(a.filename))
      .map((a) => ({ filename: a.filename ?? 'attachment', contentType: a.contentType, content: a.content })),
  };
}
