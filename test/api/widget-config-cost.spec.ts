/**
 * The widget's settings are asked at every page view of every site that embeds it (GET /widget/api/:uuid/config), so
 * what they cost the database is counted here (the driver's command monitoring): once warm, one read, the widget's;
 * the account's billing state and its plan are kept a second (models/Account.ts, models/Plan.ts). A plan change
 * through this process shows at the next page view all the same.
 */
import { expect } from 'chai';
import { CHAT_ENDPOINT_DEFAULTS } from '../../server/models/ChatEndpoint';
import { startTestServer, useServer } from '../helpers/app';
import { backgroundCommand, cheapestRun, commandLog, type SetUp, setUpRelayWidget } from '../relay/helpers';

describe('a page view’s widget settings, and what they cost the database', () => {
  const server = useServer({}, (overrides) => startTestServer(overrides, { monitorCommands: true }));
  const log = commandLog(server, (e) => !backgroundCommand(e));
  let widget: SetUp;
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });
  afterEach(() => log.stop());

  const pageView = async (): Promise<{ poweredBy: string | null; online: boolean }> => {
    const res = await fetch(`${server.url}/widget/api/${widget.uuid}/config?lang=en-US`);
    expect(res.status).to.equal(200);
    return (await res.json()) as { poweredBy: string | null; online: boolean };
  };
  const onPlan = async (planStripeId: string) => {
    const ce = await widget.widget();
    await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { subscriptionStatus: 'active', planStripeId } });
  };

  it('costs one read once warm: the widget; its account and plan come from memory', async () => {
    const seen = await cheapestRun(
      3,
      async () => {
        await pageView();
        log.start();
        await pageView();
        log.stop();
        return log.seen;
      },
      (ops) => ops.length <= 1,
    );
    expect(seen).to.deep.equal(['find chatendpoints']);
  });

  it('reads a widget stored before some of its fields existed as the fields’ defaults, as the console shows them', async () => {
    const before = await (await fetch(`${server.url}/widget/api/${widget.uuid}/config?lang=de-DE,de`)).json();
    const ce = await widget.widget();
    // Every setting still at its default, and the widget's other fields a new one starts with, as if never stored.
    const stored = ce.toObject() as unknown as Record<string, unknown>;
    const unset: Record<string, ''> = { operatingHours: '', textOverrides: '', off: '', installationRevoked: '', tags: '' };
    for (const [key, value] of Object.entries(CHAT_ENDPOINT_DEFAULTS)) if (stored[key] === value) unset[key] = '';
    expect(Object.keys(unset)).to.include.members(['titleColor', 'triggerJson', 'manualMode', 'tz', 'onlineTitle']);
    await server.models.ChatEndpoint.collection.updateOne({ _id: ce._id }, { $unset: unset });
    const after = await (await fetch(`${server.url}/widget/api/${widget.uuid}/config?lang=de-DE,de`)).json();
    expect(after).to.deep.equal(before);
    expect(after.settings.titleColor).to.equal(CHAT_ENDPOINT_DEFAULTS.titleColor);
  });

  it('shows a plan change at the next page view: the powered-by link goes with white label and comes back without it', async () => {
    await onPlan('parley_basic_monthly');
    expect((await pageView()).poweredBy).to.be.a('string');
    await onPlan('parley_business_monthly');
    expect((await pageView()).poweredBy).to.equal(null);
    await onPlan('parley_basic_monthly');
    expect((await pageView()).poweredBy).to.be.a('string');
  });
});
