/**
 * The Answers report API on the seeded account (seed.ts) and its help-center events (answersSeed.ts): every figure
 * of a custom range across the 2026 DST change in New York, the unanswered questions grouped case-insensitively,
 * the CSV download, and access (403 without a session, to a member or on Basic; 404 for another account's widget;
 * 400 for a wrong range or format).
 */
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { Types } from 'mongoose';
import type { AnswersReport } from '../../server/shared/reports';
import { useServer } from '../helpers/app';
import { type AnswersSeeded, seedAnswerEvents } from './answersSeed';
import { rangeReportAccessSpecs } from './rangeReportAccess';
import { CUSTOM_RANGE, reportRequest, type Seeded, seedReportAccount, ZONE } from './seed';

describe('Answers report API', () => {
  const server = useServer();
  let seeded: Seeded;
  let articles: AnswersSeeded;
  before(async () => {
    seeded = await seedReportAccount(server);
    articles = await seedAnswerEvents(server.models, seeded.accountId, new Types.ObjectId(seeded.ceId));
  });

  const get = (path: string, query: Record<string, string | number> = {}, token: string | undefined = seeded.token) =>
    reportRequest(server, seeded.ceId, path, query, token);
  const custom = CUSTOM_RANGE;

  it('counts the range’s searches, views, answers, resolutions and suggestions in the report’s zone', async () => {
    const report = (await get('answers', custom).expect(200)).body as AnswersReport;
    // Mar 9 23:30 EDT is in (Mar 10 in UTC); Mar 1 and Mar 10 00:00 EDT and the other widget's search are out.
    expect(report.totals).to.deep.equal({
      searches: 6,
      searchesWithoutAnswer: 5,
      articleViews: 6,
      helpfulYes: 1,
      helpfulNo: 2,
      resolved: 1,
      suggestionsSent: 4,
    });
    expect(report.suggestions).to.deep.equal([
      { kind: 'savedReply', sent: 2 },
      { kind: 'article', sent: 1 },
      { kind: 'pastAnswer', sent: 1 },
    ]);
    expect(report.unansweredTotal).to.equal(3);
    expect(report.unanswered).to.deep.equal([
      { query: 'Do you sell printers', language: 'en', count: 3, lastAskedAt: '2026-03-10T03:30:00.000Z' },
      { query: 'livraison en Belgique', language: 'fr', count: 1, lastAskedAt: '2026-03-08T09:00:00.000Z' },
      { query: 'Where is my invoice?', language: 'en', count: 1, lastAskedAt: '2026-03-08T08:00:00.000Z' },
    ]);
    expect(report.articles).to.deep.equal([
      { id: articles.reset, title: 'Reset your password', language: 'en', views: 3, helpfulYes: 1, helpfulNo: 1, resolved: 1, sent: 1 },
      { id: articles.livraison, title: 'Livraison gratuite', language: 'fr', views: 1, helpfulYes: 0, helpfulNo: 0, resolved: 0, sent: 0 },
      {
        id: articles.twoFactor,
        title: 'Two-factor authentication',
        language: 'en',
        views: 1,
        helpfulYes: 0,
        helpfulNo: 1,
        resolved: 0,
        sent: 0,
      },
      { id: articles.deleted, title: '', language: '', views: 1, helpfulYes: 0, helpfulNo: 0, resolved: 0, sent: 0 },
    ]);
  });

  it('reads the same events as other days in UTC, and nothing in a range without events', async () => {
    const utc = (await get('answers', { ...custom, tz: 'UTC' }).expect(200)).body as AnswersReport;
    // In UTC, Mar 10 03:30 is out: one printers question and one view fewer.
    expect(utc.totals.searches).to.equal(5);
    expect(utc.unanswered[0]).to.include({ query: 'Do you sell printers', count: 2 });
    expect(utc.totals.articleViews).to.equal(5);
    const empty = (await get('answers', { tz: ZONE, startDate: '2026-02-01T00:00:00', endDate: '2026-02-02T23:59:59' }).expect(200))
      .body as AnswersReport;
    expect(empty).to.deep.equal({
      totals: { searches: 0, searchesWithoutAnswer: 0, articleViews: 0, helpfulYes: 0, helpfulNo: 0, resolved: 0, suggestionsSent: 0 },
      suggestions: [],
      unanswered: [],
      unansweredTotal: 0,
      articles: [],
    });
  });

  it('downloads the report as CSV (figures, every unanswered question, the articles) and as JSON, named after the room', async () => {
    const csv = await get('answers/download', { ...custom, format: 'csv' })
      .buffer(true)
      .expect(200);
    expect(csv.headers['content-type']).to.match(/^text\/csv/);
    expect(csv.headers['content-disposition']).to.match(/Z_support_answers_parley_output\.csv"?$/);
    const rows = parseCsv(csv.text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
    expect(rows.slice(0, 12)).to.deep.equal([
      ['Figure', 'Value'],
      ['Searches', '6'],
      ['Searches that found nothing', '5'],
      ['Article views', '6'],
      ['Did this answer: Yes', '1'],
      ['Did this answer: No', '2'],
      ['Conversations resolved by an article', '1'],
      ['Suggestions sent from Slack', '4'],
      ['Suggestions sent from Slack: Saved replies', '2'],
      ['Suggestions sent from Slack: Articles', '1'],
      ['Suggestions sent from Slack: Answers from past conversations', '1'],
      ['Question that found nothing', 'Language', 'Times asked', 'Last asked'],
    ]);
    expect(rows[12]).to.deep.equal(['Do you sell printers', 'en', '3', '2026-03-10T03:30:00.000Z']);
    expect(rows[15]).to.deep.equal(['Article', 'Language', 'Views', 'Yes', 'No', 'Resolved', 'Sent from Slack']);
    expect(rows[16]).to.deep.equal(['Reset your password', 'en', '3', '1', '1', '1', '1']);
    expect(rows[19]).to.deep.equal(['(deleted article)', '', '1', '0', '0', '0', '0']);
    const json = await get('answers/download', { ...custom, format: 'json' }).expect(200);
    expect(json.headers['content-disposition']).to.match(/Z_support_answers_parley_output\.json"?$/);
    expect(JSON.parse(json.text).totals.searches).to.equal(6);
  });

  it('guards a question that looks like a spreadsheet formula in the CSV', async () => {
    const at = new Date('2026-02-10T12:00:00Z');
    await server.models.AnswerEvent.create({
      accountId: seeded.accountId,
      ceId: new Types.ObjectId(seeded.ceId),
      kind: 'search',
      at,
      query: '=HYPERLINK("http://evil.test")',
      language: 'en',
      hits: 0,
    });
    const range = { tz: 'UTC', startDate: '2026-02-10T00:00:00', endDate: '2026-02-10T23:59:59', format: 'csv' };
    const rows = parseCsv((await get('answers/download', range).buffer(true).expect(200)).text, {
      relax_column_count: true,
      skip_empty_lines: true,
    }) as string[][];
    expect(rows.find((r) => r[1] === 'en')?.[0]).to.equal('\'=HYPERLINK("http://evil.test")');
  });

  rangeReportAccessSpecs('answers', server, () => seeded);
});
