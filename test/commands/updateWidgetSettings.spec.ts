import { expect } from 'chai';
import { Types } from 'mongoose';
import { type SettingsDeps, unknownSettingMessage, updateWidgetSettings } from '../../server/commands/updateWidgetSettings';
import { PaymentRequiredError, ValidationError } from '../../server/errors';
import { TEAM_AVATAR_NEEDED } from '../../server/shared/settings';
import { createUserInDb } from '../factories';
import { payingAfterTrial, recordingSettingsDeps, useStore } from './helpers';

describe('updateWidgetSettings', () => {
  const store = useStore();
  const widget = async () => {
    const { user } = await createUserInDb(store);
    await payingAfterTrial(store.models, user.accountId);
    const ce = await store.models.ChatEndpoint.findOne({ accountId: user.accountId });
    if (!ce) throw new Error('no widget');
    return ce;
  };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as Error,
    );

  it('saves the changed fields, tells open widgets their new config and other processes, and answers the presence', async () => {
    const ce = await widget();
    const rec = recordingSettingsDeps(store.models, true);
    const updated = await updateWidgetSettings(rec.deps as unknown as SettingsDeps, ce, {
      autoResponseMessage: 'Hello there',
      hideWhenOffline: true,
    });
    expect(updated.status).to.equal('online');
    const stored = await store.models.ChatEndpoint.findById(ce._id);
    expect(stored?.autoResponseMessage).to.equal('Hello there');
    expect(rec.published).to.have.length(1);
    expect(rec.published[0]?.channel).to.equal(`widget:${ce.id}`);
    expect(rec.published[0]?.frame).to.deep.include({ t: 'config' });
    expect(JSON.stringify(rec.published[0]?.frame)).to.include('Hello there');
    expect(rec.signals).to.deep.equal([{ kind: 'widget', ceId: ce.id }]);
    expect(rec.rechecked).to.deep.equal([ce.id]);
  });

  it('refuses an unknown (misspelt) setting by name and saves nothing', async () => {
    const ce = await widget();
    const rec = recordingSettingsDeps(store.models);
    const error = await refusal(
      updateWidgetSettings(rec.deps as unknown as SettingsDeps, ce, { autoResponseMessage: 'x', auto_response_message: 'y' }),
    );
    expect(error).to.be.instanceOf(ValidationError);
    expect(error?.message).to.equal(unknownSettingMessage('auto_response_message'));
    expect(error?.message).to.equal('Unknown setting: auto_response_message (did you mean autoResponseMessage?)');
    expect(rec.published).to.deep.equal([]);
    expect((await store.models.ChatEndpoint.findById(ce._id))?.autoResponseMessage).to.not.equal('x');
  });

  it('refuses settings that contradict each other: acceptance without text, an avatar option without avatar, countries without data', async () => {
    const ce = await widget();
    const deps = recordingSettingsDeps(store.models).deps as unknown as SettingsDeps;
    expect((await refusal(updateWidgetSettings(deps, ce, { requireAcceptance: true, acceptanceText: 'ok' })))?.message).to.equal(
      'Must be at least three characters for Acceptance text to be displayed.',
    );
    expect((await refusal(updateWidgetSettings(deps, ce, { teamAvatarOn: true })))?.message).to.equal(TEAM_AVATAR_NEEDED);
    expect((await refusal(updateWidgetSettings(deps, ce, { countryAllowList: 'US', collectVisitorMetaData: false })))?.message).to.equal(
      'Country lists need the collect personal data privacy setting on.',
    );
    expect(
      (await refusal(updateWidgetSettings(deps, ce, { countryAllowList: 'XX, US', collectVisitorMetaData: true })))?.message,
    ).to.include('is not an ISO two-letter country code');
  });

  it('needs the triggers feature to add triggers (basic plan: 402), and moves open conversations’ due times with the grace periods', async () => {
    const ce = await widget();
    const deps = recordingSettingsDeps(store.models).deps as unknown as SettingsDeps;
    const trigger = {
      uid: 'trg1',
      message: 'Need help?',
      after: 5,
      on: ['/pricing'],
      matchType: 'contains',
      enabled: true,
      displayStyle: 'peek',
    };
    const triggers = JSON.stringify({ minDelay: 60, matchType: 'contains', triggers: [trigger] });
    const error = await refusal(updateWidgetSettings(deps, ce, { triggerJson: triggers }));
    expect(error).to.be.instanceOf(PaymentRequiredError);
    expect(error?.message).to.equal('Your plan does not have access to triggers. Please upgrade.');
    const startedAt = new Date();
    const { insertedId } = await store.models.Conversation.collection.insertOne({
      accountId: ce.accountId,
      ceId: ce._id,
      number: 1,
      visitorId: new Types.ObjectId(),
      status: 'open',
      startedAt,
      inactiveAt: new Date(startedAt.getTime() + 5 * 60_000),
    });
    await updateWidgetSettings(deps, ce, { maxVisitorInactiveMins: 15 });
    const moved = await store.models.Conversation.collection.findOne({ _id: insertedId });
    expect((moved?.inactiveAt as Date | undefined)?.getTime()).to.equal(startedAt.getTime() + 15 * 60_000);
  });
});
