import { expect } from 'chai';
import { nextTags, tagNote, unknownTags } from '../../../server/conversations/tags';
import { tagTargetBlocks, targetLine } from '../../../server/slack/blocks/inboxTags';

const base = { _id: 'c1', status: 'open' as const, tags: [] as string[], targetDueAt: null, targetKind: null, targetRemindedAt: null };

describe('the header’s tags and response target', () => {
  it('shows nothing for a widget without tags on an untagged conversation, and a picker of the list otherwise', () => {
    expect(tagTargetBlocks(base, { tags: [] })).to.deep.equal([]);
    const [section] = tagTargetBlocks({ ...base, tags: ['refund', 'old'] }, { tags: ['billing', 'refund'] });
    expect(section).to.deep.include({ block_id: 'tags_c1', text: { type: 'mrkdwn', text: '*Tags:* `refund` `old`' } });
    const accessory = (section as { accessory: { options: { value: string }[]; initial_options: { value: string }[] } }).accessory;
    // A tag the list dropped stays selectable until someone removes it.
    expect(accessory.options.map((o) => o.value)).to.deep.equal(['billing', 'refund', 'old']);
    expect(accessory.initial_options.map((o) => o.value)).to.deep.equal(['refund', 'old']);
  });

  it('says when the answer is due while a target runs, that it was missed after, and nothing once ended', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    const due = new Date('2026-11-27T10:15:00Z');
    const running = targetLine({ ...base, targetDueAt: due, targetKind: 'first' }, now);
    expect(running).to.include('First response due <!date^').and.include('15 min left');
    expect(targetLine({ ...base, targetDueAt: due, targetKind: 'next' }, new Date('2026-11-27T10:20:00Z'))).to.include(
      'Next response target missed',
    );
    expect(targetLine({ ...base, status: 'ended', targetDueAt: due, targetKind: 'first' }, now)).to.equal('');
  });

  it('computes a change of tags: added once, removed, a whole set keeping the order of those kept', () => {
    expect(nextTags(['a'], { add: ['B', 'a', 'c', 'b'] })).to.deep.equal(['a', 'b', 'c']);
    expect(nextTags(['a', 'b', 'c'], { remove: ['b'] })).to.deep.equal(['a', 'c']);
    expect(nextTags(['a', 'b', 'c'], { set: ['d', 'c', 'a'] })).to.deep.equal(['a', 'c', 'd']);
    expect(unknownTags(['Billing', '#bug', 'x'], ['billing', 'bug'])).to.deep.equal(['x']);
    expect(tagNote('U1', ['a'], ['b', 'c'])).to.equal(':label: <@U1> tagged this conversation `a` and removed the tags `b`, `c`.');
  });
});
