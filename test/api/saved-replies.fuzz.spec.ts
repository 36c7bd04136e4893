/**
 * Garbage into the saved replies and question groups calls: every variant answers 400 with a Message (never
 * 500, never success) and stores nothing.
 */
import { expect } from 'chai';
import request from 'supertest';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { firstWidgetId } from '../slack/helpers';

const MALFORMED_JSON = ['{', '{"label": ', "{'label': 'a'}", '[1, 2', '{"a":1}{"b":2}'];
const NOT_OBJECTS = ['[]', '"a string"', '42', 'null', 'true'];
const WRONG_VALUES: [string, unknown][] = [
  ['a number', 7],
  ['a boolean', true],
  ['null', null],
  ['an array', ['a']],
  ['an object', {}],
  ['a query operator', { $gt: '' }],
  ['a 60 KB string', 'y'.repeat(60_000)],
];

describe('saved replies and question groups with garbage input', () => {
  let token: string;
  let ceId: string;
  const server = useServer();
  before(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
    const ce = await server.models.ChatEndpoint.findById(ceId);
    await server.models.Account.updateOne({ _id: ce?.accountId }, { $set: { planStripeId: 'parley_business_monthly' } });
  });

  const endpoints: [string, string, Record<string, unknown>][] = [
    ['saved reply', 'saved_replies', { label: 'Hi', triggerPhrases: 'hello', response: 'Hello!', shortcut: 'hi', autoSend: false }],
    [
      'question group',
      'question_groups',
      {
        label: 'G',
        shortcut: 'g',
        prompt: 'p',
        auto: false,
        treeJson: JSON.stringify([{ text: 'Q?', isQ: true, children: [{ text: 'A', isQ: false, action: '' }] }]),
      },
    ],
  ];

  for (const [name, route, valid] of endpoints) {
    const post = (body: string, contentType = 'application/json') =>
      request(server.url)
        .post(`/v1/chat_endpoints/${ceId}/${route}`)
        .set('Authorization', `Bearer ${token}`)
        .set('content-type', contentType)
        .send(body);

    it(`answers 400 with a Message to every garbage ${name} body and stores nothing`, async () => {
      const bodies: string[] = [...MALFORMED_JSON, ...NOT_OBJECTS];
      for (const field of Object.keys(valid)) {
        for (const [, value] of WRONG_VALUES) {
          // true is a fine value of a boolean field.
          if (typeof valid[field] === 'boolean' && typeof value === 'boolean') continue;
          bodies.push(JSON.stringify({ ...valid, [field]: value }));
        }
      }
      for (const body of bodies) {
        const res = await post(body);
        expect(res.status, `${body.slice(0, 80)} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`).to.equal(400);
        expect(res.body.Message, body.slice(0, 80)).to.be.a('string').and.not.equal('');
      }
      expect(await server.models.SavedReply.countDocuments({})).to.equal(0);
      expect(await server.models.QuestionGroup.countDocuments({})).to.equal(0);
    });
  }

  it('answers 400 to trees with wrong node shapes', async () => {
    const trees: unknown[] = [
      { text: 'not a list', isQ: true },
      [{ text: 'Q?', isQ: 'yes', children: [] }],
      [{ text: 'Q?', isQ: true, children: 'none' }],
      [{ text: 'Q?', isQ: true, children: [{ text: 'A', isQ: false, action: { $ne: 1 } }] }],
      [{ text: 'Q?', isQ: true, children: [{ text: 'A', isQ: false, action: 'bad action!' }] }],
      [{ id: '../../x', text: 'Q?', isQ: true, children: [{ text: 'A', isQ: false, action: '' }] }],
    ];
    for (const tree of trees) {
      const res = await request(server.url)
        .post(`/v1/chat_endpoints/${ceId}/question_groups`)
        .set('Authorization', `Bearer ${token}`)
        .send({ label: 'G', treeJson: JSON.stringify(tree) });
      expect(res.status, JSON.stringify(tree)).to.equal(400);
      expect(res.body.Message).to.match(/^treeJson/);
    }
  });
});
