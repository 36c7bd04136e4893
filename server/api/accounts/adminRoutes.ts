/**
 * Admin-only account calls under /v1/accounts: generating the API and Zapier keys, the GDPR export of the
 * account (built in the background, downloaded through a signed link under /v1/p/) and the erasure of one
 * visitor.
 */
import { existsSync } from 'node:fs';
import { type Response, Router } from 'express';
import { generateApiKey } from '../../commands/apiKeys';
import { eraseVisitor, presentErasure } from '../../commands/gdprErasure';
import { exportFile, type GdprExportDeps, presentExport, startGdprExport, verifyExportLink } from '../../commands/gdprExport';
import { NotFoundError } from '../../errors';
import { authOf, requireAdmin, requireAuth } from '../../http/auth';
import { type Validated, validate } from '../../http/validate';
import type { GdprErasureView, GdprExportView } from '../../shared/team';
import { loadCurrentUser } from '../users/currentUser';
import type { ApiDeps } from '../users/routes';
import { ExportDownloadParamsSchema, ExportDownloadQuerySchema, GdprErasureSchema, GenerateApiKeySchema } from './adminSchema';

const ExportDownload = { params: ExportDownloadParamsSchema, query: ExportDownloadQuerySchema };

const RECENT_ERASURES = 20;

export function accountAdminRouter({ config, models, mailer, logger }: ApiDeps): Router {
  const router = Router();
  const admin = [requireAuth(models, config.jwtSecret), requireAdmin];
  const exportDeps: GdprExportDeps = {
    models,
    mailer,
    logger,
    publicUrl: config.publicUrl,
    secret: config.jwtSecret,
    dataDir: config.dataDir,
  };

  // Body { key: 'apiKey' | 'zapierApiKey' } (the API key when empty). The answer carries the new key in full, once.
  router.put(
    '/accounts/generate-api-key',
    ...admin,
    validate(GenerateApiKeySchema),
    async (req: Validated<typeof GenerateApiKeySchema>, res) => {
      const { user } = authOf(res);
      const field = req.body.key;
      const key = await generateApiKey(models, user, field === 'apiKey' ? 'api' : 'zapier');
      res.json(await loadCurrentUser(models, user, { field, key }));
    },
  );

  /** The latest export of the account (null when none was asked for): the console polls it for progress. */
  router.get('/accounts/gdpr-export', ...admin, async (_req, res: Response<GdprExportView | null>) => {
    const job = await models.GdprExport.findOne({ accountId: authOf(res).user.accountId }).sort({ _id: -1 });
    res.json(job ? presentExport(exportDeps, job) : null);
  });

  router.post('/accounts/gdpr-export', ...admin, async (_req, res: Response<GdprExportView>) => {
    const { job } = await startGdprExport(exportDeps, authOf(res).user);
    res.status(202).json(presentExport(exportDeps, job));
  });

  // Public: whoever holds the signed link (the admin's mail, the account page) downloads until it expires.
  router.get('/p/gdpr-exports/:id', validate(ExportDownload), async (req: Validated<typeof ExportDownload>, res) => {
    const { id } = req.params;
    const { expires, signature } = req.query;
    const gone = () => new NotFoundError('This export link has expired or is invalid. Ask for a new export on the Account page.');
    if (!verifyExportLink(config.jwtSecret, id, expires, signature)) throw gone();
    const job = await models.GdprExport.findOne({ _id: id, status: 'ready' });
    if (!job || !existsSync(exportFile(config.dataDir, job._id))) throw gone();
    res.set('Cache-Control', 'private, no-store');
    res.download(exportFile(config.dataDir, job._id), `parley-export-${job.createdAt.toISOString().slice(0, 10)}.zip`, {
      dotfiles: 'allow',
    });
  });

  router.post(
    '/accounts/gdpr-erasure',
    ...admin,
    validate(GdprErasureSchema),
    async (req: Validated<typeof GdprErasureSchema>, res: Response<GdprErasureView>) => {
      res.status(201).json(presentErasure(await eraseVisitor(models, authOf(res).user, req.body.query)));
    },
  );

  router.get('/accounts/gdpr-erasures', ...admin, async (_req, res: Response<GdprErasureView[]>) => {
    const erasures = await models.GdprErasure.find({ accountId: authOf(res).user.accountId })
      .sort({ _id: -1 })
      .limit(RECENT_ERASURES);
    res.json(erasures.map(presentErasure));
  });

  return router;
}
