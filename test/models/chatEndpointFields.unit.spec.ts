/**
 * The stored widget (models/ChatEndpoint.ts) and its API view (shared/types.ts ChatEndpointView) come from one
 * type, ChatEndpointRecord. The type-level checks below fail compilation (tsc, part of npm test) when the two
 * drift: a field on one side only must be named here, as stored-only (never leaves the server) or view-only
 * (computed by the presenter).
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import { presentChatEndpoint } from '../../server/api/presenters/chatEndpoint';
import { type ChatEndpoint, ChatEndpointSchema, chatEndpointModel } from '../../server/models/ChatEndpoint';
import type { ChatEndpointView } from '../../server/shared/types';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(check: Equal<A, B>) => check;

/** Stored, never in the view. */
const STORED_ONLY = ['accountId', 'userId', 'scheduleOpen', 'identitySecret', 'createdAt', 'updatedAt'] as const;
/** In the view, computed when presented. */
const VIEW_ONLY = ['Id', 'online'] as const;

same<Exclude<keyof ChatEndpoint, keyof ChatEndpointView>, (typeof STORED_ONLY)[number]>(true);
same<Exclude<keyof ChatEndpointView, keyof ChatEndpoint>, (typeof VIEW_ONLY)[number]>(true);
// The fields on both sides have the same type, moments aside (a Date stored, an ISO string shown) and operating
// hours (the view names the widget in each entry).
type Shared = Exclude<keyof ChatEndpoint & keyof ChatEndpointView, 'identitySecretCreatedAt' | 'operatingHours'>;
same<Pick<ChatEndpoint, Shared>, Pick<ChatEndpointView, Shared>>(true);

describe('the stored widget and its API view', () => {
  it('stores every field the view shows but those computed when presented, and presents every stored field but the private ones', () => {
    const connection = mongoose.createConnection();
    try {
      const ce = new (chatEndpointModel(connection))({ accountId: new mongoose.Types.ObjectId(), userId: new mongoose.Types.ObjectId() });
      const paths = Object.keys(ChatEndpointSchema.paths).filter((p) => !p.startsWith('_') && !p.includes('.'));
      const shown = Object.keys(presentChatEndpoint(ce));
      expect(shown.filter((k) => !paths.includes(k)).sort()).to.deep.equal([...VIEW_ONLY].sort());
      expect(paths.filter((p) => !shown.includes(p)).sort()).to.deep.equal([...STORED_ONLY].sort());
    } finally {
      void connection.close();
    }
  });
});
