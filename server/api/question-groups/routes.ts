/**
 * Question groups under /v1/chat_endpoints/{id}/question_groups (plan feature questionGroups). Groups belong
 * to the account: every widget of it lists the same ones.
 */
import { type Request, type Response, Router } from 'express';
import { requirePlanFeature } from '../../commands/planFeature';
import {
  deleteQuestionGroup,
  listQuestionGroups,
  presentQuestionGroup,
  type QuestionGroupView,
  saveQuestionGroup,
} from '../../commands/questionGroups';
import { authOf, requireAuth } from '../../http/auth';
import { type Validated, validate } from '../../http/validate';
import { ownChatEndpoint } from '../chat-endpoints/access';
import type { ApiDeps } from '../users/routes';
import { SaveQuestionGroupSchema } from './schema';

export function questionGroupsRouter(deps: ApiDeps): Router {
  const { config, models } = deps;
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);

  const checked = async (req: Request, res: Response) => {
    const ce = await ownChatEndpoint(models, res, String(req.params.id));
    await requirePlanFeature(models, ce.accountId, 'questionGroups');
    return authOf(res).user.accountId;
  };

  router.get('/chat_endpoints/:id/question_groups', auth, async (req, res: Response<{ groups: QuestionGroupView[] }>) => {
    const accountId = await checked(req, res);
    res.json({ groups: await listQuestionGroups(models, accountId) });
  });

  router.post(
    '/chat_endpoints/:id/question_groups',
    auth,
    validate(SaveQuestionGroupSchema),
    async (req: Validated<typeof SaveQuestionGroupSchema>, res: Response<QuestionGroupView>) => {
      const accountId = await checked(req, res);
      res.json(presentQuestionGroup(await saveQuestionGroup(models, accountId, req.body)));
    },
  );

  router.delete('/chat_endpoints/:id/question_groups/:uid', auth, async (req, res) => {
    const accountId = await checked(req, res);
    await deleteQuestionGroup(models, accountId, String(req.params.uid));
    res.json({});
  });

  return router;
}
