/** What the public widget API's endpoints accept (bodies parsed by validate(); uploads by their command). */
import { z } from 'zod';
import { ARTICLE_LIMITS } from '../../shared/articles';
import { OfflineMessageSchema } from '../../shared/widget-protocol';

/** A widget's public id, as the loader puts it in the path. */
export const WidgetParams = z.object({ uuid: z.string().min(1).max(64) });

export const OfflineMessageRequest = { params: WidgetParams, body: OfflineMessageSchema };
export const UploadRequest = { params: WidgetParams };

/** The help-center search: the visitor's words (over-long is a 400) and their browser's languages. */
export const ArticleSearchRequest = {
  params: WidgetParams,
  query: z.object({
    q: z.string().max(ARTICLE_LIMITS.queryChars, `q: At most ${ARTICLE_LIMITS.queryChars} characters.`).default(''),
    lang: z.string().max(400).default(''),
    /** `1`: the visitor's settled search (not a keystroke's), recorded for the Answers report. */
    record: z.enum(['0', '1']).optional(),
  }),
};

/** One published article for the widget's panel: its id, and the visitor's languages (a translation is preferred). */
export const ArticleViewRequest = {
  params: WidgetParams.extend({ id: z.string().min(1).max(64) }),
  query: z.object({ lang: z.string().max(400).default('') }),
};

/** A mail's "Continue the chat" link: its resume token, exchanged for a visitor token (POST /widget/api/{uuid}/resume). */
export const ResumeRequest = { params: WidgetParams, body: z.object({ token: z.string().min(1).max(200) }) };
