/**
 * Reports under /v1/reports/{ceId}: overview, availability, the help center's answers, the team, the chat history and
 * one chat's transcript, and the downloads. For admins of accounts whose plan has reports (else 403); another account's widget is 404.
 */
import { type Response, Router } from 'express';
import { planHasFeature } from '../../commands/planFeature';
import { AuthorizationError } from '../../errors';
import { authOf, requireAuth } from '../../http/auth';
import { validated } from '../../http/validate';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import { answersReport } from '../../reports/answers';
import { availabilityReport } from '../../reports/availability';
import { writeAnswersCsv, writeChatsCsv, writeChatsJson, writeOverviewCsv, writeTeamCsv } from '../../reports/export';
import { allChats, chatBatches, chatsPage, transcript, transcriptFile } from '../../reports/history';
import { overviewReport } from '../../reports/overview';
import { type ReportRange, reportRange } from '../../reports/range';
import { type OperatorDirectory, teamReport } from '../../reports/team';
import { ERROR_CODES } from '../../shared/constants';
import {
  type AnswersReport,
  type AvailabilityReport,
  type ChatsPage,
  type DownloadReport,
  downloadName,
  type OverviewReport,
  type TeamReport,
  type Transcript,
} from '../../shared/reports';
import { ownChatEndpoint } from '../chat-endpoints/access';
import type { ApiDeps } from '../users/routes';
import { ChatsDownloadSchema, ChatsQuerySchema, RangeDownloadSchema, RangeQuerySchema } from './schema';

export function reportsRouter(deps: ApiDeps & { now?: () => Date }): Router {
  const { config, models } = deps;
  const operators: OperatorDirectory | undefined = deps.operators;
  const now = deps.now ?? (() => new Date());
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);

  /** The widget, once it is the caller's, the caller is an admin and the plan has reports. */
  const reportable = async (ceId: string, res: Response): Promise<ChatEndpointDocument> => {
    const ce = await ownChatEndpoint(models, res, ceId);
    if (!authOf(res).user.admin) throw new AuthorizationError('Reports are for account admins', ERROR_CODES.adminRequired);
    if (!(await planHasFeature(models, ce.accountId, 'reports')))
      throw new AuthorizationError('Your plan does not have access to reports. Please upgrade.', ERROR_CODES.forbidden);
    return ce;
  };

  const attachment = (res: Response, format: 'csv' | 'json', report: DownloadReport, ce: ChatEndpointDocument) => {
    res.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
    res.attachment(downloadName(now(), format, report, ce.RoomName));
  };

  const range = { query: RangeQuerySchema };
  /** GET /reports/{ceId}/{name}: the widget's report of the range, as the console draws it. */
  const rangeReport = <R>(name: string, build: (ce: ChatEndpointDocument, range: ReportRange) => Promise<R>) =>
    router.get(
      `/reports/:ceId/${name}`,
      auth,
      validated(range, async (req, res: Response<R>) => {
        const ce = await reportable(req.params.ceId, res);
        res.json(await build(ce, reportRange(req.query)));
      }),
    );
  const rangeDownload = { query: RangeDownloadSchema };
  /** GET /reports/{ceId}/{name}/download?format=csv|json: the report of the range as a file; `json` picks what the JSON holds. */
  const rangeReportFile = <R>(
    name: DownloadReport,
    build: (ce: ChatEndpointDocument, range: ReportRange) => Promise<R>,
    csv: (report: R, out: Response) => Promise<void>,
    json: (report: R) => unknown = (report) => report,
  ) =>
    router.get(
      `/reports/:ceId/${name}/download`,
      auth,
      validated(rangeDownload, async (req, res) => {
        const ce = await reportable(req.params.ceId, res);
        const report = await build(ce, reportRange(req.query));
        attachment(res, req.query.format, name, ce);
        if (req.query.format === 'csv') await csv(report, res);
        else res.send(JSON.stringify(json(report)));
      }),
    );

  rangeReport<OverviewReport>('overview', (ce, r) => overviewReport(models, ce, r));
  rangeReportFile(
    'overview',
    (ce, r) => overviewReport(models, ce, r),
    writeOverviewCsv,
    ({ totalStats, stats }) => ({ totalStats, stats }),
  );
  rangeReport<AvailabilityReport>('availability', (ce, r) => availabilityReport(models, ce, r, now()));
  rangeReport<AnswersReport>('answers', (ce, r) => answersReport(models, ce, r));
  // The file lists every unanswered question; the screen the most asked.
  rangeReportFile('answers', (ce, r) => answersReport(models, ce, r, { allQuestions: true }), writeAnswersCsv);
  rangeReport<TeamReport>('team', (ce, r) => teamReport(models, ce, r, operators));
  rangeReportFile('team', (ce, r) => teamReport(models, ce, r, operators), writeTeamCsv);

  const chats = { query: ChatsQuerySchema };
  router.get(
    '/reports/:ceId/chats',
    auth,
    validated(chats, async (req, res: Response<ChatsPage>) => {
      const ce = await reportable(req.params.ceId, res);
      const { tag, state, assignee } = req.query;
      res.json(await chatsPage(models, ce, req.query.page, req.query.perPage, req.query.q, { tag, state, assignee }));
    }),
  );

  const chatsDownload = { query: ChatsDownloadSchema };
  router.get(
    '/reports/:ceId/chats/download',
    auth,
    validated(chatsDownload, async (req, res) => {
      const ce = await reportable(req.params.ceId, res);
      const q = req.query;
      const range = q.tz && q.startDate && q.endDate ? reportRange({ tz: q.tz, startDate: q.startDate, endDate: q.endDate }) : undefined;
      attachment(res, q.format, 'history', ce);
      const opts = { range, limit: q.limit, filters: { tag: q.tag, state: q.state, assignee: q.assignee } };
      await (q.format === 'csv'
        ? writeChatsCsv(ce, chatBatches(models, ce, { ...opts, fields: 'csv' }), res)
        : writeChatsJson(allChats(models, ce, opts), res));
    }),
  );

  router.get('/reports/:ceId/chats/:chatId', auth, async (req, res: Response<Transcript>) => {
    const ce = await reportable(String(req.params.ceId), res);
    res.json(await transcript(models, ce, String(req.params.chatId)));
  });

  // A file of the transcript (a visitor's upload or screenshot), as the widget serves it: images inline, the rest
  // downloaded, so an uploaded page never runs on Parley's origin.
  router.get('/reports/:ceId/chats/:chatId/files/:fileId', auth, async (req, res) => {
    const ce = await reportable(String(req.params.ceId), res);
    const file = await transcriptFile(models, ce, String(req.params.chatId), String(req.params.fileId));
    const inline = /^image\/(png|jpeg|gif|webp)$/.test(file.mimetype);
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    res.type(inline ? file.mimetype : 'application/octet-stream');
    res.send(file.data);
  });

  return router;
}
