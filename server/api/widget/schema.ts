/** What the public widget API's endpoints accept (bodies parsed by validate(); uploads by their command). */
import { z } from 'zod';
import { OfflineMessageSchema } from '../../shared/widget-protocol';

/** A widget's public id, as the loader puts it in the path. */
export const WidgetParams = z.object({ uuid: z.string().min(1).max(64) });

export const OfflineMessageRequest = { params: WidgetParams, body: OfflineMessageSchema };
export const UploadRequest = { params: WidgetParams };
