/**
 * GET /v1/support (the Support page's chat widget and phone line), the widget config's "Chat by Parley" link by
 * plan, and the white-label footer text setting.
 */
import { expect } from 'chai';
import request from 'supertest';
import { newIdentitySecret, userHashValid } from '../../server/conversations/identity';
import { planStripeId } from '../../server/shared/plans';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { setUpRelayWidget } from '../relay/helpers';

const PHONE = '+44 20 7946 0958';
const BUSINESS = planStripeId('business', 'monthly');
/** A new account's trial has every Business feature: these specs look at a Basic account after its trial. */
const PAYING_BASIC = { subscriptionStatus: 'active', planStripeId: planStripeId('basic', 'monthly') };

describe('support and white label API', () => {
  describe('with SUPPORT_WIDGET_ID and SUPPORT_PHONE', () => {
    const server = useServer({ support: { widgetId: 'parley-team-widget', firstLocalWidget: false, phone: PHONE } });

    it('answers 403 without a session', async () => {
      await request(server.url).get('/v1/support').expect(403);
    });

    it('answers the support widget to everyone, and the phone number only to plans with phone support', async () => {
      const user = await signUpUser(server);
      const mine = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
      // After the trial subscription's own webhooks, which would say 'trialing' again.
      await server.stripe.settled();
      await server.models.Account.updateOne({ _id: mine.body.accountId }, { $set: PAYING_BASIC });
      // SUPPORT_WIDGET_ID names no widget yet: the page keeps its mail form.
      const none = await request(server.url).get('/v1/support').set('Authorization', `Bearer ${user.token}`).expect(200);
      expect(none.body).to.deep.equal({ widgetId: null, userHash: null, phone: null });
      const team = await setUpRelayWidget(server);
      await server.models.ChatEndpoint.updateOne({ _id: team.ceId }, { $set: { Uuid: 'parley-team-widget' } });
      const basic = await request(server.url).get('/v1/support').set('Authorization', `Bearer ${user.token}`).expect(200);
      expect(basic.body).to.deep.equal({ widgetId: 'parley-team-widget', userHash: null, phone: null });
      const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
      await server.models.Account.updateOne({ _id: me.body.accountId }, { $set: { planStripeId: BUSINESS } });
      const business = await request(server.url).get('/v1/support').set('Authorization', `Bearer ${user.token}`).expect(200);
      expect(business.body).to.deep.equal({ widgetId: 'parley-team-widget', userHash: null, phone: PHONE });
    });

    it("signs the user's id with the support widget's identity secret, when it has one, so the team's chat knows them as verified", async () => {
      const user = await signUpUser(server);
      const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
      const secret = newIdentitySecret();
      await server.models.ChatEndpoint.updateOne({ Uuid: 'parley-team-widget' }, { $set: { identitySecret: secret } });
      const res = await request(server.url).get('/v1/support').set('Authorization', `Bearer ${user.token}`).expect(200);
      expect(res.body.userHash).to.match(/^[0-9a-f]{64}$/);
      expect(userHashValid(secret, me.body.Id, res.body.userHash)).to.equal(true);
      // Another user gets another hash: a hash says who this user is, and nobody else.
      const other = await signUpUser(server);
      const theirs = await request(server.url).get('/v1/support').set('Authorization', `Bearer ${other.token}`).expect(200);
      expect(theirs.body.userHash).to.not.equal(res.body.userHash);
      expect(userHashValid(secret, me.body.Id, theirs.body.userHash)).to.equal(false);
    });
  });

  describe('without them', () => {
    const server = useServer();

    it('answers no widget and no phone, whatever the plan', async () => {
      const widget = await setUpRelayWidget(server);
      const ce = await widget.widget();
      await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { planStripeId: BUSINESS } });
      const res = await request(server.url).get('/v1/support').set('Authorization', `Bearer ${widget.token}`).expect(200);
      expect(res.body).to.deep.equal({ widgetId: null, userHash: null, phone: null });
    });

    it("links the widget's footer to Parley with the widget as referral unless the plan has white label", async () => {
      const widget = await setUpRelayWidget(server);
      await server.stripe.settled();
      await server.models.Account.updateOne({ _id: (await widget.widget()).accountId }, { $set: PAYING_BASIC });
      const basic = await request(server.url).get(`/widget/api/${widget.uuid}/config`).expect(200);
      expect(basic.body.poweredBy).to.equal(`${server.url}/pricing?ref=${widget.uuid}&utm_source=widget&utm_medium=referral`);
      const ce = await widget.widget();
      await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { planStripeId: BUSINESS } });
      const business = await request(server.url).get(`/widget/api/${widget.uuid}/config`).expect(200);
      expect(business.body.poweredBy).to.equal(null);
    });

    it('takes an own footer text only on plans with white label, at most 120 characters, and always lets it be cleared', async () => {
      const widget = await setUpRelayWidget(server);
      await server.stripe.settled();
      await server.models.Account.updateOne({ _id: (await widget.widget()).accountId }, { $set: PAYING_BASIC });
      const put = (footerText: unknown) =>
        request(server.url)
          .put(`/v1/chat_endpoints/${widget.ceId}/update_config`)
          .set('Authorization', `Bearer ${widget.token}`)
          .send({ footerText });
      const refused = await put('Roasted in Leeds').expect(402);
      expect(refused.body).to.deep.equal({
        Message: 'Your plan does not have access to white label. Please upgrade.',
        Error: 'plan_feature',
      });
      await put('').expect(200);
      const ce = await widget.widget();
      await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { planStripeId: BUSINESS } });
      await put('  Roasted in Leeds  ').expect(200);
      expect((await widget.widget()).footerText).to.equal('Roasted in Leeds');
      const config = await request(server.url).get(`/widget/api/${widget.uuid}/config`).expect(200);
      expect(config.body.settings.footerText).to.equal('Roasted in Leeds');
      const long = await put('x'.repeat(121)).expect(400);
      expect(long.body.Message).to.contain('at most 120 characters');
      await put(42).expect(400);
    });
  });
});
