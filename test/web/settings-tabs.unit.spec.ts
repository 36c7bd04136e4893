import { expect } from 'chai';
import type { TreeNode } from '../../server/shared/questionGroups';
import { readTriggerJson, splitPages, triggerErrors, triggerSummary } from '../../server/shared/triggers';
import { groupErrors, moveSibling, newQuestion, parentsOf, setAction } from '../../web/console/scenes/settings/question-groups/tree';
import { newDraft, nextSet, visibleErrors } from '../../web/console/scenes/settings/triggers/drafts';

describe('trigger rules shared by the console and the server', () => {
  it('splits pages on whitespace and commas, de-duplicated, without empty entries', () => {
    expect(splitPages('/pricing, /plans\n\n/pricing  https://x.example/a,')).to.deep.equal(['/pricing', '/plans', 'https://x.example/a']);
  });

  it('needs a message, a whole number of seconds (0 allowed, blank not) and a page', () => {
    expect(triggerErrors({ message: 'Hi', after: '0', on: '/a' })).to.deep.equal({});
    expect(Object.keys(triggerErrors({ message: ' ', after: '', on: ' , ' }))).to.deep.equal(['message', 'after', 'on']);
    expect(triggerErrors({ message: 'Hi', after: '1.5', on: '/a' })).to.have.property('after');
  });

  it("summarises a trigger as message, 'after N sec' and pages, cut at 100 characters, or 'New trigger'", () => {
    expect(triggerSummary({ message: '', after: '0', on: '' }, true)).to.equal('New trigger');
    expect(triggerSummary({ message: 'Hello', after: '5', on: '/a\n/b' })).to.equal('Hello after 5 sec /a, /b');
    const long = triggerSummary({ message: 'x'.repeat(120), after: '5', on: '/a' });
    expect(long).to.have.length(101);
    expect(long.endsWith('…')).to.equal(true);
  });

  it('reads legacy trigger sets leniently: exact true is exact, no match type is contains', () => {
    const set = readTriggerJson(
      JSON.stringify({
        triggers: [
          { uid: 'a', message: 'm', after: '3', on: ['/x'], exact: true },
          { uid: 'b', message: 'n', on: [] },
        ],
      }),
    );
    expect(set.minDelay).to.equal(60);
    expect(set.triggers.map((t) => [t.uid, t.matchType, t.after, t.enabled])).to.deep.equal([
      ['a', 'exact', 3, true],
      ['b', 'contains', 0, true],
    ]);
  });
});

describe('Triggers tab drafts', () => {
  it('hides the errors of a new trigger until its fields are touched', () => {
    const draft = newDraft('contains');
    expect(visibleErrors(draft)).to.deep.equal({});
    expect(visibleErrors({ ...draft, touched: { message: true } })).to.have.keys(['message']);
  });

  it('saves one trigger into the stored set, keeping the others as stored, and removes one', () => {
    const saved = readTriggerJson(
      JSON.stringify({ minDelay: 60, triggers: [{ uid: 'a', message: 'A', after: 1, on: ['/a'], enabled: true }] }),
    );
    const draft = { ...newDraft('contains'), uid: 'b', message: ' B ', after: '2', pages: '/b\n/b' };
    const next = nextSet(saved, 'b', draft, 5);
    expect(next.minDelay).to.equal(5);
    expect(next.triggers.map((t) => [t.uid, t.message, t.on])).to.deep.equal([
      ['a', 'A', ['/a']],
      ['b', 'B', ['/b']],
    ]);
    expect(nextSet(next, 'a', null, 5).triggers.map((t) => t.uid)).to.deep.equal(['b']);
  });
});

describe('question group tree editing', () => {
  const answer = (id: string, text: string, action?: string): TreeNode => ({
    id,
    text,
    isQ: false,
    children: [],
    ...(action !== undefined ? { action } : {}),
  });
  const tree = (): TreeNode[] => [
    { id: 'q1', text: 'Sales or support?', isQ: true, children: [answer('a1', 'Sales', 'form'), answer('a2', 'Support')] },
  ];

  it("adds a child question with two empty answers for 'Ask new question', and drops it when the action changes", () => {
    const withNew = setAction(tree(), 'a2', 'new');
    const child = withNew[0]?.children[1]?.children[0];
    expect(child?.isQ).to.equal(true);
    expect(child?.children.map((c) => c.text)).to.deep.equal(['', '']);
    expect(setAction(withNew, 'a2', 'form')[0]?.children[1]?.children).to.deep.equal([]);
  });

  it("appends a top-level question for 'Ask next question' on the last question", () => {
    const next = setAction(tree(), 'a2', 'next');
    expect(next).to.have.length(2);
    expect(next[1]?.children).to.have.length(2);
  });

  it('moves a node among its siblings only', () => {
    expect(moveSibling(tree(), 'a2', 'a1')[0]?.children.map((c) => c.id)).to.deep.equal(['a2', 'a1']);
    expect(moveSibling(tree(), 'a2', 'q1')).to.deep.equal(tree());
    expect(parentsOf(tree()).get('a2')).to.equal('q1');
  });

  it("flags 'Required.', 'Exceeds 1024 characters.' and 'Select an option.' by node; new answers start with a Then", () => {
    const errors = groupErrors({ label: ' ', shortcut: '', auto: false, prompt: 'x'.repeat(1025), tag: '', tree: [newQuestion()] });
    expect(errors.label).to.equal('Required.');
    expect(errors.prompt).to.equal('Exceeds 1024 characters.');
    const messages = Object.values(errors.nodes);
    expect(messages.filter((m) => m.text === 'Required.')).to.have.length(3);
    // A new answer ends the questions until another Then is picked: nothing to choose before saving.
    expect(newQuestion().children.map((a) => a.action)).to.deep.equal(['', '']);
    expect(messages.filter((m) => m.action === 'Select an option.')).to.have.length(0);
    expect(groupErrors({ label: 'Triage', shortcut: '', auto: false, prompt: '', tag: '', tree: tree() }).nodes).to.deep.equal({
      a2: { action: 'Select an option.' },
    });
  });
});
