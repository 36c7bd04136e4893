import { ErrorCode } from '@slack/web-api';
import { expect } from 'chai';
import { isSlackCallError, slackErrorCode } from '../../server/slack/slackErrors';

describe('slackErrors', () => {
  const platform = (error: unknown) =>
    Object.assign(new Error('An API error occurred'), { code: ErrorCode.PlatformError, data: { ok: false, error } });

  it("reads Slack's own error code of a failed call, and 'ratelimited' for a rate-limited one", () => {
    expect(slackErrorCode(platform('name_taken'))).to.equal('name_taken');
    expect(slackErrorCode(Object.assign(new Error('slow down'), { code: ErrorCode.RateLimitedError, retryAfter: 3 }))).to.equal(
      'ratelimited',
    );
  });

  it('answers undefined for anything that is not a Slack answer (a bug, a network failure, a platform error without a code)', () => {
    expect(slackErrorCode(new TypeError('x is undefined'))).to.equal(undefined);
    expect(slackErrorCode(Object.assign(new Error('down'), { code: ErrorCode.RequestError }))).to.equal(undefined);
    expect(slackErrorCode(platform(undefined))).to.equal(undefined);
    expect(slackErrorCode(null)).to.equal(undefined);
    expect(slackErrorCode('name_taken')).to.equal(undefined);
  });

  it('tells failed Web API calls (answered or not) from bugs', () => {
    expect(isSlackCallError(platform('not_in_channel'))).to.equal(true);
    expect(isSlackCallError(Object.assign(new Error('down'), { code: ErrorCode.RequestError }))).to.equal(true);
    expect(isSlackCallError(Object.assign(new Error('timeout'), { code: ErrorCode.HTTPError }))).to.equal(true);
    expect(isSlackCallError(new TypeError('x is undefined'))).to.equal(false);
    expect(isSlackCallError(Object.assign(new Error('db'), { code: 11000 }))).to.equal(false);
    expect(isSlackCallError(undefined)).to.equal(false);
  });
});
