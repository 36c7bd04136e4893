/**
 * What the other Parley processes tell this one over Redis (server/relay/pubsub.ts `Signal`), so that caches and
 * open widgets here follow a change made there. Without Redis nothing arrives: there is no other process.
 */
import type { RelayContext } from './context';

/**
 * Acts on the other processes' signals until the returned function is called. `teamChanged`: another process
 * changed a team's Slack installation (the Slack side forgets its clients with the old tokens).
 */
export function followOtherProcesses(ctx: RelayContext, teamChanged: (teamId: string) => void): () => void {
  return ctx.pubsub.onSignal((signal) => {
    switch (signal.kind) {
      case 'widget':
        // Drops the cached settings and tells the widgets open here if their presence changed.
        void ctx.presence.recheck(signal.ceId).catch((error: unknown) => {
          ctx.logger.warn({ widgetId: signal.ceId, err: error }, 'relay: could not follow a change of a widget');
        });
        break;
      case 'savedReplies':
        ctx.autoReplies.forget(signal.ceId);
        break;
      case 'team':
        teamChanged(signal.teamId);
        break;
      case 'outbox':
        for (const key of signal.keys) ctx.outbox.wake(key);
        break;
    }
  });
}
