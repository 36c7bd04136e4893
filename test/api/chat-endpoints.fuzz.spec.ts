/**
 * The setup calls that take input get garbage: malformed JSON, non-objects, wrong types, huge strings,
 * query operators. Each must answer 400 with a Message (never 500, never success) and change nothing,
 * in Parley or in Slack.
 */
import { expect } from 'chai';
import request from 'supertest';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { BROWSER, firstWidgetId, setUpWidget } from '../slack/helpers';

const MALFORMED_JSON = ['{', '{"channelName": ', '{"a":1,}', "{'a': 1}", 'nul', '[1, 2', '{"a":1}{"b":2}'];
const NOT_OBJECTS = ['[]', '"a string"', '42', 'null', 'true'];
const WRONG_VALUES: [string, unknown][] = [
  ['a number', 0],
  ['a boolean', true],
  ['null', null],
  ['an array', ['support']],
  ['an object', {}],
  ['a query operator', { $gt: '' }],
  ['a 60 KB string', 'y'.repeat(60_000)],
  ['a 1 MB string', 'x'.repeat(1_100_000)],
  ['a name with a newline', 'help\ndesk'],
];

type Case = { name: string; method: 'post' | 'put' | 'get'; path: string; body?: string; contentType?: string };

function bodyCases(method: Case['method'], path: string, field: string, extraFieldsRefused: boolean): Case[] {
  const cases: Case[] = [];
  const send = (label: string, body: string, contentType = 'application/json') =>
    cases.push({ name: `${method.toUpperCase()} ${path}: ${label}`, method, path, body, contentType });
  for (const text of MALFORMED_JSON) send(`malformed JSON ${JSON.stringify(text)}`, text);
  for (const text of NOT_OBJECTS) send(`a body of ${text}`, text);
  send('no body at all', '');
  send(`${field} missing`, '{}');
  for (const [label, value] of WRONG_VALUES) send(`${field} is ${label}`, JSON.stringify({ [field]: value }));
  if (extraFieldsRefused) send('an extra field accountId', JSON.stringify({ [field]: 'fine-name', accountId: '000000000000000000000000' }));
  return cases;
}

describe('widget setup API under garbage input', () => {
  let token: string;
  let ceId: string;
  let snapshot: () => Promise<string>;
  const server = useServer();
  before(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    snapshot = async () => {
      const ce = await server.models.ChatEndpoint.findById(ceId).lean();
      const channels = server.slack.state.data.channels.map((c) => `${c.id}:${c.name}:${c.isArchived}`).join(',');
      return JSON.stringify({ ce: { ...ce, updatedAt: undefined }, channels, widgets: await server.models.ChatEndpoint.countDocuments() });
    };
  });

  const cases = (): Case[] => [
    ...bodyCases('post', 'channels', 'channelName', true),
    ...bodyCases('put', 'rename-channel', 'roomName', true),
    // connect_ce takes the whole widget, so extra fields are expected there.
    ...bodyCases('put', 'connect_ce', 'RoomId', false),
    ...[
      'purpose=',
      'purpose=install&purpose=upgrade',
      'purpose[$ne]=x',
      'purpose=upgrade&bot=commands,admin',
      `purpose=upgrade&user=${'z'.repeat(2000)}`,
      'purpose=upgrade&extra=1',
    ].map((q): Case => ({ name: `GET slack_authorize?${q.slice(0, 60)}`, method: 'get', path: `slack_authorize?${q}` })),
  ];

  for (const c of cases()) {
    it(`answers 400 with a Message and changes nothing: ${c.name}`, async () => {
      const before = await snapshot();
      let req = request(server.url)
        [c.method](`/v1/chat_endpoints/${ceId}/${c.path}`)
        .set('Authorization', `Bearer ${token}`)
        .set('Cookie', BROWSER);
      if (c.body !== undefined) req = req.set('Content-Type', c.contentType ?? 'application/json').send(c.body);
      const res = await req;
      expect(res.status, res.text.slice(0, 200)).to.equal(400);
      expect(res.body.Message).to.be.a('string').and.not.equal('');
      expect(await snapshot()).to.equal(before);
    });
  }
});
