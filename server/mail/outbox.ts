/**
 * The local stand-in for an SMTP server: each mail is written to a folder as JSON (what the dev page
 * and tests read) and as .eml (what a mail client opens).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const SentMailSchema = z.object({
  id: z.string(),
  /** ISO date */
  date: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  replyTo: z.object({ name: z.string(), address: z.string() }).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** The Message-ID the mail was sent with (an answer names it in In-Reply-To). */
  messageId: z.string().optional(),
  /** Every http(s) link of the text part, in order. */
  links: z.array(z.string()),
});
export type SentMail = z.infer<typeof SentMailSchema>;

export type Outbox = {
  dir: string;
  save(mail: Omit<SentMail, 'id' | 'date' | 'links'>, eml: Buffer): Promise<SentMail>;
  /** Newest first. */
  list(): Promise<SentMail[]>;
  latestTo(email: string): Promise<SentMail | undefined>;
};

const LINK_PATTERN = /https?:\/\/[^\s<>"')]+/g;
/** Links in prose end before a closing full stop or comma. */
const linksOf = (text: string) => (text.match(LINK_PATTERN) ?? []).map((link) => link.replace(/[.,;:!?]+$/, ''));

export function createOutbox(dir: string): Outbox {
  let sequence = 0;
  return {
    dir,
    async save(mail, eml) {
      await mkdir(dir, { recursive: true });
      // Time, then a per-process counter, then randomness: names sort in sending order and never clash.
      const id = `${Date.now().toString().padStart(15, '0')}-${(sequence++).toString().padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
      const sent: SentMail = { ...mail, id, date: new Date().toISOString(), links: linksOf(mail.text) };
      await writeFile(path.join(dir, `${id}.eml`), eml);
      await writeFile(path.join(dir, `${id}.json`), `${JSON.stringify(sent, null, 2)}\n`);
      return sent;
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const mails: SentMail[] = [];
      for (const name of names
        .filter((n) => n.endsWith('.json'))
        .sort()
        .reverse()) {
        const parsed = SentMailSchema.safeParse(JSON.parse(await readFile(path.join(dir, name), 'utf8')));
        if (parsed.success) mails.push(parsed.data);
      }
      return mails;
    },
    async latestTo(email) {
      const wanted = email.trim().toLowerCase();
      return (await this.list()).find((mail) => mail.to.toLowerCase().includes(wanted));
    },
  };
}
