/**
 * Every InboxEvent is written through recordInboxEvents (server/conversations/inboxEvents.ts), which adds it to the
 * day tallies Reports → Team reads: an event written around it would be missing from the report. This scan fails
 * on a server file that writes the InboxEvent model or collection itself (create, insertMany, updates, bulkWrite).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { sourceFiles } from '../helpers/sourceFiles';

const ROOT = path.join(__dirname, '..', '..');

/** The recorder, and the tallying of events stored before the tallies (which marks them tallied). */
const WRITERS = new Set(['server/conversations/inboxEvents.ts', 'server/models/inboxTallies.ts']);

const WRITE =
  /InboxEvent\s*(?:\.collection\s*)?\.\s*(?:create|insertMany|insertOne|updateOne|updateMany|replaceOne|findOneAndUpdate|findOneAndReplace|bulkWrite|save)\b/;

describe('InboxEvents are written in one place', () => {
  it('finds no write of the InboxEvent model or collection outside server/conversations/inboxEvents.ts', () => {
    const files = sourceFiles(path.join(ROOT, 'server'), /\.(ts|tsx)$/)
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .filter((file) => !WRITERS.has(file));
    expect(files.length).to.be.greaterThan(300);
    const found = files.flatMap((file) =>
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (WRITE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found, 'write them with recordInboxEvents').to.deep.equal([]);
  });
});
