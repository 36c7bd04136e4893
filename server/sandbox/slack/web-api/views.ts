/**
 * The Web API's views.*: modals opened and pushed from a trigger, updated, and App Home published.
 */
import { SlackApiError } from '../ops';
import { viewObject } from '../present';
import { checkView, openModal, publishHome, pushModal, updateView, useTrigger } from '../views';
import type { MethodDeps, MethodTable } from './args';
import { jsonArg, str, userArg } from './args';

export function viewMethods({ ctx }: MethodDeps): MethodTable {
  const { state } = ctx;
  return {
    'views.open': (call) => {
      const { userId } = useTrigger(ctx, call.args.trigger_id, call.ws.id);
      const def = checkView(jsonArg(call.args, 'view'), 'modal');
      return { view: viewObject(ctx, openModal(ctx, call.ws.id, userId, def)) };
    },

    'views.push': (call) => {
      const { userId } = useTrigger(ctx, call.args.trigger_id, call.ws.id);
      const def = checkView(jsonArg(call.args, 'view'), 'modal');
      return { view: viewObject(ctx, pushModal(ctx, call.ws.id, userId, def)) };
    },

    'views.update': (call) => {
      const viewId = str(call.args, 'view_id');
      const externalId = str(call.args, 'external_id');
      if (!viewId && !externalId)
        throw new SlackApiError('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] either view_id or external_id is required'] },
        });
      const view = viewId ? state.view(viewId) : state.data.views.find((v) => v.externalId === externalId && v.teamId === call.ws.id);
      if (!view || view.teamId !== call.ws.id) throw new SlackApiError('not_found');
      const def = checkView(jsonArg(call.args, 'view'), 'any');
      return { view: viewObject(ctx, updateView(ctx, view, def, call.args.hash)) };
    },

    'views.publish': (call) => {
      const user = userArg(state, call, 'user_id');
      const def = checkView(jsonArg(call.args, 'view'), 'home');
      return { view: viewObject(ctx, publishHome(ctx, call.ws.id, user.id, def, call.args.hash)) };
    },
  };
}
