/**
 * GET /v1/chat_endpoints/{id}/segment: the widget's Segment status for the console's Integrations tab: whether
 * it has a write key, and how the last batch of its events fared in the process that answers.
 */
import { type Response, Router } from 'express';
import { requireAuth } from '../../http/auth';
import type { SegmentStatusView } from '../../shared/integrations';
import { ownChatEndpoint } from '../chat-endpoints/access';
import type { ApiDeps } from '../users/routes';

export function integrationsRouter(deps: ApiDeps): Router {
  const { config, models, segment } = deps;
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);

  router.get('/chat_endpoints/:id/segment', auth, async (req, res: Response<SegmentStatusView>) => {
    const ce = await ownChatEndpoint(models, res, String(req.params.id));
    const writeKey = ce.segmentWriteKey.trim();
    if (!writeKey) {
      res.json({ enabled: false, lastDeliveredAt: null, lastError: null });
      return;
    }
    res.json({ enabled: true, ...(segment?.status(writeKey) ?? { lastDeliveredAt: null, lastError: null }) });
  });
  return router;
}
