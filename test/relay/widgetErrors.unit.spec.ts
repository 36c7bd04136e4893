import { expect } from 'chai';
import { ActionRefused, AppError, asCodedError, NotFoundError, WidgetRefusal } from '../../server/errors';
import { widgetErrorOf } from '../../server/relay/widgetErrors';
import { captureLogs } from '../helpers/logs';

describe('the one error family', () => {
  it('makes refusals of the widget and of Slack actions AppErrors with a code and a 400 status', () => {
    const widget = new WidgetRefusal('too_many_conversations', 'All our operators are busy.');
    const action = new ActionRefused('Conversation #4 has already ended.');
    for (const error of [widget, action]) {
      expect(error).to.be.instanceOf(AppError);
      expect(error.status).to.equal(400);
      expect(error.isReportable).to.equal(false);
    }
    expect(widget.code).to.equal('too_many_conversations');
    expect(action.code).to.equal('action_refused');
  });

  it('wraps anything else as a reportable 500 that keeps the original as its cause', () => {
    const original = new TypeError('x is undefined');
    const coded = asCodedError(original);
    expect(coded.status).to.equal(500);
    expect(coded.code).to.equal('internal_error');
    expect(coded.isReportable).to.equal(true);
    expect(coded.cause).to.equal(original);
    expect(coded.message).not.to.include('undefined');
    const known = new NotFoundError();
    expect(asCodedError(known)).to.equal(known);
  });

  it('tells the widget a refusal as it is, and anything else as a generic retry after logging it', () => {
    const logs = captureLogs();
    const { logger } = logs;
    expect(widgetErrorOf(new WidgetRefusal('info_required', 'Please tell us your e-mail address.'), logger)).to.deep.equal({
      code: 'info_required',
      message: 'Please tell us your e-mail address.',
    });
    expect(logs.lines()).to.have.length(0);
    expect(widgetErrorOf(new Error('database is down at 10.0.0.3'), logger)).to.deep.equal({
      code: 'bad_frame',
      message: 'Something went wrong; please try again.',
    });
    expect(logs.lines()).to.have.length(1);
    expect(logs.lines()[0]).to.include({ level: 'error', msg: 'relay: frame failed' });
    expect((logs.lines()[0].err as { message: string }).message).to.equal('database is down at 10.0.0.3');
  });
});
