import type { z } from 'zod';
import { QuestionGroupInputSchema } from '../../shared/questionGroups';

/** POST /chat_endpoints/{id}/question_groups: create, or update the group with this uid. */
export const SaveQuestionGroupSchema = QuestionGroupInputSchema;
export type SaveQuestionGroup = z.infer<typeof SaveQuestionGroupSchema>;
