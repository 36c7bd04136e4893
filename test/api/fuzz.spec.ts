/**
 * Every endpoint gets garbage: malformed JSON, wrong types, huge strings, missing and extra fields.
 * Each must answer 400 with a Message (never 500, never success) and leave the database as it was.
 */

import { EJSON } from 'bson';
import { expect } from 'chai';
import request from 'supertest';
import { signUpUser, uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';
import { eventually } from '../slack/helpers';

type Case = { name: string; method: 'get' | 'post'; path: string; body?: string | object; contentType?: string; auth?: boolean };

const HUGE = 'x'.repeat(1_100_000);
const LONG = 'y'.repeat(60_000);

const MALFORMED_JSON = [
  '{',
  '{"email": ',
  '{"email":"a@example.com",}',
  "{'email': 'a@example.com'}",
  '{"email" "a"}',
  'nul',
  'NaN',
  '\u0000',
  '[1, 2',
  '{"a":1}{"b":2}',
];
const NOT_OBJECTS = ['[]', '"a string"', '42', 'null', 'true', '[{"email":"a@example.com"}]'];
const WRONG_VALUES: [string, unknown][] = [
  ['a number', 0],
  ['a fraction', 1.5],
  ['a boolean', true],
  ['null', null],
  ['an empty array', []],
  ['an array of strings', ['a@example.com']],
  ['an object', {}],
  ['a query operator', { $gt: '' }],
  ['a 60 KB string', LONG],
  ['a 1 MB string', HUGE],
];

/** A valid-looking body and the variants of it that must all be refused. */
function bodyCases(name: string, path: string, valid: Record<string, unknown>, optional: string[] = []): Case[] {
  const cases: Case[] = [];
  const send = (label: string, body: string | object, contentType = 'application/json') =>
    cases.push({ name: `${name}: ${label}`, method: 'post', path, body, contentType });
  for (const text of MALFORMED_JSON) send(`malformed JSON ${JSON.stringify(text)}`, text);
  for (const text of NOT_OBJECTS) send(`a body of ${text}`, text);
  send('no body at all', '');
  send('valid JSON sent as text/plain', JSON.stringify(valid), 'text/plain');
  send('valid JSON sent as a form', new URLSearchParams(valid as Record<string, string>).toString(), 'application/x-www-form-urlencoded');
  for (const field of Object.keys(valid)) {
    if (!optional.includes(field)) {
      const { [field]: _dropped, ...rest } = valid;
      send(`${field} missing`, JSON.stringify(rest));
    }
    for (const [label, value] of WRONG_VALUES) send(`${field} is ${label}`, JSON.stringify({ ...valid, [field]: value }));
  }
  send('an extra field admin', JSON.stringify({ ...valid, admin: true }));
  send('an extra field __proto__', `{"__proto__":{"admin":true},${JSON.stringify(valid).slice(1)}`);
  send('an extra field accountId', JSON.stringify({ ...valid, accountId: '000000000000000000000000' }));
  return cases;
}

/**
 * Signed-in calls without a body still get unreadable bodies, and bad path values. (HEAD /users/logout
 * is left out: HTTP clients send no body with HEAD, so any request to it is a valid logout.)
 */
function signedInCases(): Case[] {
  const cases: Case[] = [];
  const calls: [Case['method'], string][] = [
    ['get', '/v1/users/current'],
    ['get', '/v1/users/current/chat_endpoints'],
    ['post', '/v1/users/legal_confirmation/terms/11AUG2020'],
    ['get', '/v1/users/rate/5'],
  ];
  for (const [method, path] of calls) {
    for (const text of ['{', '{"a":', 'NaN']) {
      cases.push({
        name: `${method.toUpperCase()} ${path}: malformed JSON ${JSON.stringify(text)}`,
        method,
        path,
        body: text,
        contentType: 'application/json',
        auth: true,
      });
    }
  }
  const legal = (document: string, version: string) => `/v1/users/legal_confirmation/${document}/${version}`;
  for (const [label, path] of [
    ['an unknown document', legal('cookies', '11AUG2020')],
    ['a document in another case', legal('TERMS', '11AUG2020')],
    ['an encoded slash in the document', legal('terms%2F..', '11AUG2020')],
    ['a NUL byte in the document', legal('terms%00', '11AUG2020')],
    ['a 6 KB document name', legal('d'.repeat(6000), '11AUG2020')],
    ['an unknown version', legal('terms', '12AUG2020')],
    ['a 6 KB version', legal('terms', 'v'.repeat(6000))],
    ['a query operator as version', legal('terms', '%7B%22%24gt%22%3A%22%22%7D')],
  ]) {
    cases.push({ name: `legal confirmation: ${label}`, method: 'post', path: path as string, auth: true });
  }
  for (const value of ['11', '-2', '1.5', '1e1', 'ten', '%20', '5%00', 'NaN', 'Infinity', '0x5', '9'.repeat(6000), '%7B%7D']) {
    cases.push({
      name: `rating: ${value.length > 20 ? `${value.length} nines` : JSON.stringify(value)}`,
      method: 'get',
      path: `/v1/users/rate/${value}`,
      auth: true,
    });
  }
  return cases;
}

describe('every endpoint refuses malformed input with 400 and a Message, changing nothing', function () {
  this.timeout(120_000);
  let token: string;
  let email: string;

  async function snapshot(): Promise<string> {
    const db = server.connection.db;
    if (!db) throw new Error('not connected');
    const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
    const contents: Record<string, unknown[]> = {};
    for (const name of names) contents[name] = await db.collection(name).find().sort({ _id: 1 }).toArray();
    return EJSON.stringify(contents);
  }

  const server = useServer();
  before(async () => {
    ({ token, email } = await signUpUser(server));
    // The first current-user read opens the trial in Stripe in the background; the snapshots compare what bad
    // requests change, so that settles first.
    await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
    await eventually(async () => expect((await server.models.Account.findOne({ email }).lean())?.subscriptionStatus).to.equal('trialing'));
    await server.stripe.settled();
  });

  const publicCases = () => [
    ...bodyCases('sign-up', '/v1/p/users', { email: uniqueEmail(), password: 'long enough password', tklID: 'trk' }, ['tklID']),
    ...bodyCases('login', '/v1/p/sessions', { email, password: 'correct horse battery' }),
    ...bodyCases('password reset e-mail', '/v1/p/users/password_reset_email', { email }),
    ...bodyCases('password reset', '/v1/p/users/password_reset', { token: 'A'.repeat(64), password: 'long enough password' }),
  ];

  for (const [group, cases] of [
    ['the public calls', publicCases],
    ['the signed-in calls', signedInCases],
  ] as const) {
    it(`answers 400 with a Message to each bad request of ${group}, and the database stays the same`, async () => {
      const before = await snapshot();
      const outboxBefore = (await server.outbox.list()).length;
      const failures: string[] = [];
      for (const c of cases()) {
        let req = request(server.url)[c.method](c.path);
        if (c.auth) req = req.set('Authorization', `Bearer ${token}`);
        if (c.contentType) req = req.set('Content-Type', c.contentType);
        const res = c.body === undefined ? await req : await req.send(c.body);
        const hasMessage = typeof res.body?.Message === 'string' && res.body.Message.length > 0;
        if (res.status !== 400 || !hasMessage) failures.push(`${c.name} → ${res.status} ${res.text?.slice(0, 120)}`);
      }
      expect(failures, failures.join('\n')).to.deep.equal([]);
      expect(await snapshot()).to.equal(before);
      expect((await server.outbox.list()).length).to.equal(outboxBefore);
      await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
    });
  }
});
