import { expect } from 'chai';
import { inboxStateOf } from '../../server/conversations/inbox';

describe('inboxStateOf', () => {
  it('reads a conversation stored before the shared inbox as open or ended', () => {
    expect(inboxStateOf({ status: 'open' })).to.equal('open');
    expect(inboxStateOf({ status: 'ended' })).to.equal('ended');
  });
  it('keeps a stored state while the conversation is open, and ended wins', () => {
    expect(inboxStateOf({ status: 'open', inboxState: 'snoozed' })).to.equal('snoozed');
    expect(inboxStateOf({ status: 'open', inboxState: 'waiting' })).to.equal('waiting');
    expect(inboxStateOf({ status: 'ended', inboxState: 'waiting' })).to.equal('ended');
  });
});
