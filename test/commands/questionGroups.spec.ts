import { expect } from 'chai';
import { Types } from 'mongoose';
import {
  deleteQuestionGroup,
  listQuestionGroups,
  randomId,
  sanitiseQuestionHtml,
  saveQuestionGroup,
  treeOf,
} from '../../server/commands/questionGroups';
import { NotFoundError, ValidationError } from '../../server/errors';
import type { QuestionGroupInput } from '../../server/shared/questionGroups';
import { useStore } from './helpers';

const q = (text: string, children: unknown[]) => ({ text, isQ: true, expanded: true, children });
const a = (text: string, action: string, extra: Record<string, unknown> = {}) => ({ text, isQ: false, action, children: [], ...extra });

describe('questionGroups', () => {
  const store = useStore();
  const input = (extra: Partial<QuestionGroupInput> = {}): QuestionGroupInput => ({
    label: ' Triage ',
    tag: '',
    shortcut: '',
    prompt: 'Hi!',
    auto: false,
    treeJson: JSON.stringify([q('Sales or support?', [a('Sales', 'form'), a('Support', '')])]),
    ...extra,
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as Error,
    );

  it('saves a trimmed label, generated identifiers and a sanitised prompt and custom responses', async () => {
    const accountId = new Types.ObjectId();
    const group = await saveQuestionGroup(
      store.models,
      accountId,
      input({
        prompt: 'Hi <b>there</b><script>alert(1)</script> <a href="javascript:alert(1)">x</a> <a href="https://x.test" onclick="y">ok</a>',
        treeJson: JSON.stringify([
          q('Q?', [a('A', 'customResponse', { customResponseText: '<img src=x onerror=alert(1)><strong>Thanks</strong>' })]),
        ]),
      }),
    );
    expect(group.uid).to.match(/^[A-Za-z0-9]{10}$/);
    expect(group.label).to.equal('Triage');
    expect(group.prompt).to.equal('Hi <b>there</b> <a>x</a> <a href="https://x.test">ok</a>');
    const tree = treeOf(group);
    expect(tree[0]?.id).to.match(/^[A-Za-z0-9]{13}$/);
    expect(tree[0]?.children[0]?.customResponseText).to.equal('<strong>Thanks</strong>');
    expect((await listQuestionGroups(store.models, accountId)).map((g) => g.uid)).to.deep.equal([group.uid]);
  });

  it('refuses a bad tree or label with the path and message of the first problem, and saves nothing', async () => {
    const accountId = new Types.ObjectId();
    for (const [bad, message] of [
      [input({ treeJson: '{not json' }), 'treeJson: Not valid JSON.'],
      [input({ label: '' }), 'label: Required.'],
      [input({ treeJson: JSON.stringify([q('', [a('A', '')])]) }), 'treeJson[0].text: Required.'],
    ] as const) {
      const error = await refusal(saveQuestionGroup(store.models, accountId, bad));
      expect(error).to.be.instanceOf(ValidationError);
      expect(error?.message).to.equal(message);
    }
    expect(await listQuestionGroups(store.models, accountId)).to.deep.equal([]);
  });

  it('keeps shortcuts unique in an account, and only one group automatic', async () => {
    const accountId = new Types.ObjectId();
    const first = await saveQuestionGroup(store.models, accountId, input({ shortcut: 'triage', auto: true }));
    const error = await refusal(saveQuestionGroup(store.models, accountId, input({ shortcut: 'triage' })));
    expect(error?.message).to.equal('shortcut: Another question group already uses that shortcut.');
    await saveQuestionGroup(store.models, new Types.ObjectId(), input({ shortcut: 'triage' }));
    const second = await saveQuestionGroup(store.models, accountId, input({ shortcut: 'other', auto: true }));
    const groups = await listQuestionGroups(store.models, accountId);
    expect(groups.filter((g) => g.auto).map((g) => g.uid)).to.deep.equal([second.uid]);
    // Saving a group again under its own uid keeps its shortcut.
    const again = await saveQuestionGroup(store.models, accountId, input({ uid: first.uid, shortcut: 'triage', label: 'Renamed' }));
    expect(again.uid).to.equal(first.uid);
    expect(again.label).to.equal('Renamed');
  });

  it("answers another account's group as not found: it cannot be overwritten or deleted", async () => {
    const owner = new Types.ObjectId();
    const group = await saveQuestionGroup(store.models, owner, input());
    const intruder = new Types.ObjectId();
    expect(await refusal(saveQuestionGroup(store.models, intruder, input({ uid: group.uid, label: 'Mine now' })))).to.be.instanceOf(
      NotFoundError,
    );
    expect(await refusal(deleteQuestionGroup(store.models, intruder, group.uid))).to.be.instanceOf(NotFoundError);
    expect((await listQuestionGroups(store.models, owner))[0]?.label).to.equal('Triage');
    await deleteQuestionGroup(store.models, owner, group.uid);
    expect(await listQuestionGroups(store.models, owner)).to.deep.equal([]);
  });

  it('makes identifiers of letters and digits only, and reads a broken stored tree as empty', () => {
    const ids = new Set(Array.from({ length: 200 }, () => randomId(13)));
    expect(ids.size).to.equal(200);
    for (const id of ids) expect(id).to.match(/^[A-Za-z0-9]{13}$/);
    expect(treeOf({ treeJson: '{broken' })).to.deep.equal([]);
    expect(sanitiseQuestionHtml('<a href="mailto:a@b.test">mail</a><br><i>x</i>')).to.equal('<a href="mailto:a@b.test">mail</a><br />x');
  });
});
