/**
 * What this tab has shown with the panel open and the page visible, told to the server in `seen` frames: the
 * server mails only replies no tab saw.
 */
import type { ClientFrame } from '../../../server/shared/widget-protocol';
import type { PanelState } from './reducer';

/** Answers the function that reports the last seq seen, when it is new and the visitor can see it. */
export function createSeenReport(state: () => PanelState, send: (frame: ClientFrame) => boolean): () => void {
  let seenSeq = 0;
  let seenIn: string | undefined;
  return () => {
    const { conversation, lastSeq, expanded, inline } = state();
    const id = conversation?.id;
    if (id !== seenIn) {
      seenIn = id;
      seenSeq = 0;
    }
    if (!id || lastSeq <= seenSeq || !(expanded || inline) || document.visibilityState !== 'visible') return;
    if (send({ t: 'seen', seq: lastSeq })) seenSeq = lastSeq;
  };
}
