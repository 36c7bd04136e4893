import { expect } from 'chai';
import { scrubSecrets } from '../../server/logger';
import { captureLogs } from '../helpers/logs';

describe("Parley's logger", () => {
  it('writes one JSON line per event with level, time and message, and leaves out what is below LOG_LEVEL', () => {
    const logs = captureLogs({ level: 'info' });
    logs.logger.debug('not this');
    logs.logger.info({ conversationId: 'c1' }, 'relayed');
    const [line, ...rest] = logs.lines();
    expect(rest).to.have.length(0);
    expect(line).to.include({ level: 'info', msg: 'relayed', conversationId: 'c1' });
    expect(new Date(String(line.time)).getTime()).to.be.closeTo(Date.now(), 5_000);
  });

  it('blanks credential headers and secret fields wherever they are logged', () => {
    const logs = captureLogs();
    logs.logger.info(
      {
        req: { headers: { authorization: 'Bearer abc', cookie: 'sid=1', 'x-visitor-token': 'v', 'stripe-signature': 's', accept: '*/*' } },
        password: 'hunter22',
        install: { botToken: 'tok', clientSecret: 'cs', teamId: 'T1' },
      },
      'request',
    );
    const [line] = logs.lines();
    expect(line.req).to.deep.equal({
      headers: {
        authorization: '[Redacted]',
        cookie: '[Redacted]',
        'x-visitor-token': '[Redacted]',
        'stripe-signature': '[Redacted]',
        accept: '*/*',
      },
    });
    expect(line.password).to.equal('[Redacted]');
    expect(line.install).to.deep.equal({ botToken: '[Redacted]', clientSecret: '[Redacted]', teamId: 'T1' });
  });

  it("blanks what looks like a secret in any text, and the deployment's own secrets however they look", () => {
    const logs = captureLogs({ secrets: ['my-own-jwt-secret-value'] });
    logs.logger.error(
      { err: new Error('refused xoxb-123-456-abcDEF and xoxp-1-2-3 with sk_test_51Habc and whsec_abcDEF123') },
      'keys pk_live_abc123 zk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA and my-own-jwt-secret-value',
    );
    const text = logs.text();
    for (const secret of ['xoxb-123', 'xoxp-1', 'sk_test_51', 'whsec_abc', 'pk_live_abc', 'zk_AAAA', 'my-own-jwt'])
      expect(text).not.to.contain(secret);
    expect(text).to.contain('[Redacted]');
  });

  it('blanks card numbers (Luhn-valid, grouped or not) and session tokens, but not timestamps, ids or counts', () => {
    expect(scrubSecrets('card 4242 4242 4242 4242 and 4000-0000-0000-0002 and 4000000000000341')).to.equal(
      'card [Redacted] and [Redacted] and [Redacted]',
    );
    expect(scrubSecrets('Authorization: Bearer abc.def')).to.equal('Authorization: Bearer [Redacted]');
    expect(scrubSecrets('token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl')).to.equal('token [Redacted]');
    const ordinary = '{"time":1764142271000,"ts":"1764142271.000100","id":"65f1a2b3c4d5e6f708192a3b","n":12345678901234}';
    expect(scrubSecrets(ordinary)).to.equal(ordinary);
  });
});
