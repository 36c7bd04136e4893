/**
 * For commands that act on a live conversation: a relay server (the real relay, the Slack sandbox as Slack) and,
 * before each test, a widget linked to a channel with a visitor chatting in it (an open conversation with a thread).
 */
import { expect } from 'chai';
import type { ConversationDocument } from '../../server/models/Conversation';
import { eventually, type SetUp, setUpRelayWidget, useRelayServer } from '../relay/helpers';
import { type Chat, openChat } from '../slack/operatorHelpers';

export function useChat() {
  const server = useRelayServer();
  const at = {} as { widget: SetUp; chat: Chat };
  beforeEach(async () => {
    at.widget = await setUpRelayWidget(server);
    at.chat = await openChat(server, at.widget);
  });
  afterEach(() => at.chat?.socket.close());
  const conversation = async (): Promise<ConversationDocument> => {
    const c = await server.models.Conversation.findById(at.chat.id);
    if (!c) throw new Error('conversation gone');
    return c;
  };
  /** The texts of the conversation's thread, once `check` holds for them. */
  const thread = async (check: (texts: string[]) => void) => {
    await eventually(async () => check(server.slack.state.replies(at.widget.channel, at.chat.threadTs).map((m) => m.text ?? '')));
  };
  return { server, at, conversation, thread, expect };
}
