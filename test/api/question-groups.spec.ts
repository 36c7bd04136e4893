import { expect } from 'chai';
import request from 'supertest';
import type { TreeNode } from '../../server/shared/questionGroups';
import { payingOn, signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { firstWidgetId } from '../slack/helpers';

/** A question with answers, as the console's editor sends it. */
function q(text: string, answers: Record<string, unknown>[], id?: string): Record<string, unknown> {
  return { ...(id ? { id } : {}), text, isQ: true, expanded: true, children: answers };
}
function a(text: string, action: string | undefined, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { text, isQ: false, ...(action !== undefined ? { action } : {}), children: [], ...extra };
}

describe('question groups API', () => {
  let token: string;
  let ceId: string;
  const server = useServer();
  beforeEach(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
    await payingOn(server, 'parley_business_monthly', { ceId });
  });

  const path = (id = ceId) => `/v1/chat_endpoints/${id}/question_groups`;
  const as = (t: string | undefined, req: request.Test) => (t ? req.set('Authorization', `Bearer ${t}`) : req);
  const list = async () => (await as(token, request(server.url).get(path())).expect(200)).body.groups as Record<string, unknown>[];
  const save = (body: Record<string, unknown>, status = 200) => as(token, request(server.url).post(path())).send(body).expect(status);
  const group = (tree: unknown[], extra: Record<string, unknown> = {}) => ({
    label: 'Triage',
    shortcut: 'triage',
    prompt: 'Hi!',
    auto: false,
    treeJson: JSON.stringify(tree),
    ...extra,
  });

  it('creates a group with generated identifiers and lists it for the account', async () => {
    const res = await save(group([q('Sales or support?', [a('Sales', 'form'), a('Support', '')])]));
    expect(res.body.uid).to.match(/^[A-Za-z0-9]{10}$/);
    const tree = JSON.parse(res.body.treeJson as string) as TreeNode[];
    expect(tree[0]?.id).to.match(/^[A-Za-z0-9]{13}$/);
    expect(tree[0]?.children.map((c) => c.id)).to.satisfy((ids: string[]) => ids.every((id) => /^[A-Za-z0-9]{13}$/.test(id)));
    const groups = await list();
    expect(groups).to.have.length(1);
    expect(groups[0]).to.include({ uid: res.body.uid, label: 'Triage', shortcut: 'triage', prompt: 'Hi!', auto: false });
  });

  it('normalises the tree: empty questions go, answers with a question get new, a last next ends the group', async () => {
    const res = await save(
      group([
        q('Empty question', []),
        q('First?', [a('Go deeper', 'form', { children: [q('Deeper?', [a('Yes', '')])] }), a('Next one', 'next'), a('Was new', 'new')]),
        q('Last?', [a('Next after last', 'next'), a('Nested', undefined, { children: [q('Inner', [a('Inner next', 'next')])] })]),
      ]),
    );
    const tree = JSON.parse(res.body.treeJson as string) as TreeNode[];
    expect(tree.map((n) => n.text)).to.deep.equal(['First?', 'Last?']);
    const first = tree[0] as TreeNode;
    expect(first.children.map((c) => c.action)).to.deep.equal(['new', 'next', '']);
    expect(first.children[0]?.children[0]?.text).to.equal('Deeper?');
    const last = tree[1] as TreeNode;
    expect(last.children[0]?.action).to.equal('');
    expect(last.children[1]?.action).to.equal('new');
    expect(last.children[1]?.children[0]?.children[0]?.action).to.equal('');
  });

  it('keeps only a, strong, b and br in the prompt and custom responses', async () => {
    const res = await save(
      group(
        [
          q('Q?', [
            a('A', 'customResponse', {
              customResponseText:
                '<b>Bold</b><script>alert(1)</script><img src=x onerror=alert(1)><a href="https://x.example" onclick="x()">link</a><em>em</em>',
            }),
          ]),
        ],
        {
          prompt: '<strong>Hello</strong><br><iframe src="https://evil.example"></iframe><a href="javascript:alert(1)">bad</a><i>i</i>',
        },
      ),
    );
    expect(res.body.prompt).to.equal('<strong>Hello</strong><br /><a>bad</a>i');
    const tree = JSON.parse(res.body.treeJson as string) as TreeNode[];
    expect(tree[0]?.children[0]?.customResponseText).to.equal('<b>Bold</b><a href="https://x.example">link</a>em');
  });

  it('keeps one automatic group per account: saving auto clears the other', async () => {
    const first = await save(group([q('Q?', [a('A', '')])], { auto: true, shortcut: 'one' }));
    const second = await save(group([q('Q?', [a('A', '')])], { auto: true, shortcut: 'two', label: 'Second' }));
    const groups = await list();
    expect(groups.find((g) => g.uid === first.body.uid)?.auto).to.equal(false);
    expect(groups.find((g) => g.uid === second.body.uid)?.auto).to.equal(true);
  });

  it('updates a group by uid and deletes it', async () => {
    const created = await save(group([q('Q?', [a('A', '')])]));
    await save({ ...group([q('New Q?', [a('B', '')])]), uid: created.body.uid, label: 'Renamed' });
    const groups = await list();
    expect(groups).to.have.length(1);
    expect(groups[0]).to.include({ label: 'Renamed' });
    await as(token, request(server.url).delete(`${path()}/${String(created.body.uid)}`)).expect(200);
    expect(await list()).to.deep.equal([]);
    await as(token, request(server.url).delete(`${path()}/${String(created.body.uid)}`)).expect(404);
  });

  it('answers 400 with the field and message of the first problem', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [group([q('Q?', [a('A', '')])], { label: '' }), 'label: Required.'],
      [group([q('Q?', [a('A', '')])], { prompt: 'x'.repeat(1025) }), 'prompt: Exceeds 1024 characters.'],
      [group([q('', [a('A', '')])]), 'treeJson[0].text: Required.'],
      [group([q('Q?', [a(' ', '')])]), 'treeJson[0].children[0].text: Required.'],
      [group([q('Q?', [a('A', undefined)])]), 'treeJson[0].children[0].action: Select an option.'],
      [{ label: 'x', treeJson: '{not json' }, 'treeJson: Not valid JSON.'],
    ];
    for (const [body, message] of cases) {
      const res = await save(body, 400);
      expect(res.body.Message, JSON.stringify(body).slice(0, 80)).to.equal(message);
    }
    await save({ label: 'x', auto: 'yes' }, 400);
    expect(await list()).to.deep.equal([]);
  });

  it('answers 403 without a session', async () => {
    await request(server.url).get(path()).expect(403);
    await request(server.url)
      .post(path())
      .send(group([q('Q?', [a('A', '')])]))
      .expect(403);
  });

  it("answers 404 for another account's widget and groups", async () => {
    const created = await save(group([q('Q?', [a('A', '')])]));
    const other = await signUpUser(server);
    const otherCe = await firstWidgetId(server, other.token);
    await payingOn(server, 'parley_business_monthly', { ceId: otherCe });
    await as(other.token, request(server.url).get(path())).expect(404);
    await as(other.token, request(server.url).post(path(otherCe)))
      .send({ ...group([q('Q?', [a('A', '')])]), uid: created.body.uid, label: 'Stolen' })
      .expect(404);
    await as(other.token, request(server.url).delete(`${path(otherCe)}/${String(created.body.uid)}`)).expect(404);
    expect((await as(other.token, request(server.url).get(path(otherCe))).expect(200)).body.groups).to.deep.equal([]);
    expect((await list())[0]).to.include({ label: 'Triage' });
  });

  it('answers 402 with Error plan_feature on a plan without question groups', async () => {
    await payingOn(server, 'parley_basic_monthly', { ceId });
    const res = await as(token, request(server.url).get(path())).expect(402);
    expect(res.body).to.deep.equal({
      Message: 'Your plan does not have access to question groups. Please upgrade.',
      Error: 'plan_feature',
    });
    await save(group([q('Q?', [a('A', '')])]), 402);
  });
});
