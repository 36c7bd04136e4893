import type { View } from '@slack/web-api';
import { expect } from 'chai';
import { ACME, ALICE, installBot, interactivityPayload, type SandboxFixture, SUPPORT, startSandbox } from './helpers';

const hoursModal = (extra: Record<string, unknown> = {}): View =>
  ({
    type: 'modal',
    callback_id: 'operating_hours',
    private_metadata: 'widget-7',
    title: { type: 'plain_text', text: 'Operating hours' },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: 'from',
        label: { type: 'plain_text', text: 'From' },
        element: { type: 'timepicker', action_id: 'time', initial_time: '09:00' },
      },
      {
        type: 'input',
        block_id: 'note',
        optional: true,
        label: { type: 'plain_text', text: 'Note' },
        element: { type: 'plain_text_input', action_id: 'text', multiline: true },
      },
      {
        type: 'input',
        block_id: 'days',
        label: { type: 'plain_text', text: 'Days' },
        element: {
          type: 'checkboxes',
          action_id: 'pick',
          options: [
            { text: { type: 'plain_text', text: 'Monday' }, value: 'mon' },
            { text: { type: 'plain_text', text: 'Tuesday' }, value: 'tue' },
          ],
        },
      },
    ],
    ...extra,
  }) as View;

async function slackError(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    return (err as { data: { error: string } }).data.error;
  }
  throw new Error('expected an error');
}

describe('Slack sandbox views', () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await startSandbox({ autoEvents: false });
  });
  afterEach(async () => {
    await f.close();
  });

  /** A fresh trigger_id, as the app gets one with a slash command. */
  async function trigger(): Promise<string> {
    const r = await f.sandbox.sendSlashCommand({ teamId: ACME, userId: ALICE, channelId: SUPPORT, command: '/parley', text: 'hours' });
    return r.triggerId as string;
  }

  it('opens a modal with a fresh trigger_id and answers with the full view object', async () => {
    const { client } = installBot(f);
    const res = await client.views.open({ trigger_id: await trigger(), view: hoursModal() });
    expect(res.view).to.include({
      type: 'modal',
      callback_id: 'operating_hours',
      private_metadata: 'widget-7',
      app_id: f.sandbox.appId,
      team_id: ACME,
      previous_view_id: null,
    });
    expect(res.view?.id).to.match(/^V/);
    expect(res.view?.root_view_id).to.equal(res.view?.id);
    expect(res.view?.hash).to.be.a('string');
    expect(res.view?.state).to.deep.equal({ values: {} });
    expect(f.sandbox.state.openModals(ACME, ALICE).map((v) => v.id)).to.deep.equal([res.view?.id]);
  });

  it('refuses a trigger_id used twice, unknown or expired', async () => {
    const { client } = installBot(f);
    const t = await trigger();
    await client.views.open({ trigger_id: t, view: hoursModal() });
    expect(await slackError(client.views.open({ trigger_id: t, view: hoursModal() }))).to.equal('exchanged_trigger_id');
    expect(await slackError(client.views.open({ trigger_id: '123.456.abc', view: hoursModal() }))).to.equal('invalid_trigger_id');
    await f.close();
    f = await startSandbox({ autoEvents: false, triggerTtlMs: 1 });
    const { client: again } = installBot(f);
    const stale = await trigger();
    await new Promise((ok) => setTimeout(ok, 10));
    expect(await slackError(again.views.open({ trigger_id: stale, view: hoursModal() }))).to.equal('expired_trigger_id');
  });

  it('checks the view: a modal with inputs needs submit, and a title of at most 24 characters', async () => {
    const { client } = installBot(f);
    expect(await slackError(client.views.open({ trigger_id: await trigger(), view: hoursModal({ submit: undefined }) }))).to.equal(
      'invalid_arguments',
    );
    expect(
      await slackError(
        client.views.open({ trigger_id: await trigger(), view: hoursModal({ title: { type: 'plain_text', text: 'x'.repeat(25) } }) }),
      ),
    ).to.equal('invalid_arguments');
  });

  it('pushes up to three modals and then answers push_limit_reached', async () => {
    const { client } = installBot(f);
    const root = await client.views.open({ trigger_id: await trigger(), view: hoursModal() });
    const second = await client.views.push({ trigger_id: await trigger(), view: hoursModal() });
    expect(second.view).to.include({ root_view_id: root.view?.id, previous_view_id: root.view?.id });
    await client.views.push({ trigger_id: await trigger(), view: hoursModal() });
    expect(await slackError(client.views.push({ trigger_id: await trigger(), view: hoursModal() }))).to.equal('push_limit_reached');
  });

  it('updates a view by id or external_id and answers hash_conflict for a stale hash', async () => {
    const { client } = installBot(f);
    const opened = await client.views.open({ trigger_id: await trigger(), view: hoursModal({ external_id: 'hours-w7' }) });
    const updated = await client.views.update({
      view_id: opened.view?.id as string,
      hash: opened.view?.hash,
      view: hoursModal({ title: { type: 'plain_text', text: 'Hours (saved)' } }),
    });
    expect(updated.view?.title).to.deep.include({ text: 'Hours (saved)' });
    expect(
      await slackError(client.views.update({ view_id: opened.view?.id as string, hash: opened.view?.hash, view: hoursModal() })),
    ).to.equal('hash_conflict');
    const byExternal = await client.views.update({
      external_id: 'hours-w7',
      view: hoursModal({ title: { type: 'plain_text', text: 'Again' } }),
    });
    expect(byExternal.view?.id).to.equal(opened.view?.id);
    expect(await slackError(client.views.update({ view_id: 'V0NOPE', view: hoursModal() }))).to.equal('not_found');
  });

  it('publishes App Home per user and sends it with app_home_opened', async () => {
    await f.close();
    f = await startSandbox();
    const { client } = installBot(f);
    const home = { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Website chat* is online' } }] } as View;
    const res = await client.views.publish({ user_id: ALICE, view: home });
    expect(res.view).to.include({ type: 'home' });
    expect(f.sandbox.state.homeView(ACME, ALICE)?.id).to.equal(res.view?.id);
    const again = await client.views.publish({ user_id: ALICE, view: home });
    expect(again.view?.id).to.equal(res.view?.id);
    await f.sandbox.openAppHome({ teamId: ACME, userId: ALICE });
    const event = f.app.received
      .map((r) => (JSON.parse(r.body) as { event: Record<string, unknown> }).event)
      .find((e) => e.type === 'app_home_opened');
    expect(event).to.include({ user: ALICE, tab: 'home' });
    expect((event!.view as { id: string }).id).to.equal(res.view?.id);
  });

  describe('view_submission', () => {
    it("sends what the user typed in Slack's state.values shape, signed, and closes the modal on an empty ack", async () => {
      const { client } = installBot(f);
      const opened = await client.views.open({ trigger_id: await trigger(), view: hoursModal() });
      f.app.received.length = 0;
      const result = await f.sandbox.sendViewSubmission({
        teamId: ACME,
        userId: ALICE,
        viewId: opened.view?.id as string,
        values: { from: { time: '08:30' }, note: { text: 'Closed on holidays' }, days: { pick: ['mon', 'tue'] } },
      });
      expect(result.ok).to.equal(true);
      const p = interactivityPayload(f.app.received[0].body);
      expect(p).to.include({ type: 'view_submission', trigger_id: result.triggerId });
      const view = p.view as {
        id: string;
        callback_id: string;
        private_metadata: string;
        state: { values: Record<string, Record<string, Record<string, unknown>>> };
      };
      expect(view).to.include({ id: opened.view?.id, callback_id: 'operating_hours', private_metadata: 'widget-7' });
      expect(view.state.values.from.time).to.deep.equal({ type: 'timepicker', selected_time: '08:30' });
      expect(view.state.values.note.text).to.deep.equal({ type: 'plain_text_input', value: 'Closed on holidays' });
      expect((view.state.values.days.pick.selected_options as Array<{ value: string }>).map((o) => o.value)).to.deep.equal(['mon', 'tue']);
      expect(f.sandbox.state.openModals(ACME, ALICE)).to.have.length(0);
    });

    it('keeps the modal open with the field errors of response_action: errors', async () => {
      const { client } = installBot(f);
      const opened = await client.views.open({ trigger_id: await trigger(), view: hoursModal() });
      f.app.respond(() => ({
        status: 200,
        body: { response_action: 'errors', errors: { from: 'Opening time must be before closing time' } },
      }));
      const result = await f.sandbox.sendViewSubmission({
        teamId: ACME,
        userId: ALICE,
        viewId: opened.view?.id as string,
        values: { days: { pick: ['mon'] } },
      });
      expect(result.viewErrors).to.deep.equal({ from: 'Opening time must be before closing time' });
      const view = f.sandbox.state.view(opened.view?.id as string);
      expect(view?.open).to.equal(true);
      expect(view?.errors).to.deep.equal({ from: 'Opening time must be before closing time' });
    });

    it('keeps the modal open with a connection problem when the app fails to answer', async () => {
      const { client } = installBot(f);
      const opened = await client.views.open({ trigger_id: await trigger(), view: hoursModal() });
      f.app.respond(() => ({ status: 500 }));
      const result = await f.sandbox.sendViewSubmission({
        teamId: ACME,
        userId: ALICE,
        viewId: opened.view?.id as string,
        values: { days: { pick: ['mon'] } },
      });
      expect(result.ok).to.equal(false);
      expect(result.viewErrors?.['']).to.contain('trouble connecting');
      expect(f.sandbox.state.view(opened.view?.id as string)?.open).to.equal(true);
    });

    it('replaces the view with response_action: update and closes every modal with clear', async () => {
      const { client } = installBot(f);
      const opened = await client.views.open({ trigger_id: await trigger(), view: hoursModal() });
      f.app.respond(() => ({
        status: 200,
        body: {
          response_action: 'update',
          view: {
            type: 'modal',
            title: { type: 'plain_text', text: 'Saved' },
            blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Done' } }],
          },
        },
      }));
      await f.sandbox.sendViewSubmission({
        teamId: ACME,
        userId: ALICE,
        viewId: opened.view?.id as string,
        values: { days: { pick: ['mon'] } },
      });
      expect(f.sandbox.state.view(opened.view?.id as string)?.definition.title).to.deep.include({ text: 'Saved' });
      await client.views.push({ trigger_id: await trigger(), view: hoursModal() });
      const top = f.sandbox.state.openModals(ACME, ALICE).at(-1);
      f.app.respond(() => ({ status: 200, body: { response_action: 'clear' } }));
      await f.sandbox.sendViewSubmission({ teamId: ACME, userId: ALICE, viewId: top?.id as string, values: { days: { pick: ['tue'] } } });
      expect(f.sandbox.state.openModals(ACME, ALICE)).to.have.length(0);
    });

    it('does not send a submission with an empty required field, as Slack keeps it in the modal', async () => {
      const { client } = installBot(f);
      const opened = await client.views.open({ trigger_id: await trigger(), view: hoursModal() });
      f.app.received.length = 0;
      const result = await f.sandbox.sendViewSubmission({ teamId: ACME, userId: ALICE, viewId: opened.view?.id as string, values: {} });
      expect(result.skipped).to.equal('required_fields_empty');
      expect(result.viewErrors).to.have.key('days');
      expect(f.app.received).to.have.length(0);
    });

    it('sends view_closed on Cancel only when the view asked for notify_on_close', async () => {
      const { client } = installBot(f);
      const quiet = await client.views.open({ trigger_id: await trigger(), view: hoursModal() });
      f.app.received.length = 0;
      expect(await f.sandbox.closeView({ teamId: ACME, userId: ALICE, viewId: quiet.view?.id as string })).to.equal(null);
      const loud = await client.views.open({ trigger_id: await trigger(), view: hoursModal({ notify_on_close: true }) });
      f.app.received.length = 0;
      await f.sandbox.closeView({ teamId: ACME, userId: ALICE, viewId: loud.view?.id as string });
      expect(interactivityPayload(f.app.received[0].body)).to.include({ type: 'view_closed', is_cleared: false });
    });
  });

  it('sends block_actions from a button in App Home with a view container', async () => {
    const { client } = installBot(f);
    const home = await client.views.publish({
      user_id: ALICE,
      view: {
        type: 'home',
        blocks: [
          {
            type: 'actions',
            block_id: 'w7',
            elements: [{ type: 'button', action_id: 'go_offline', text: { type: 'plain_text', text: 'Go offline' }, value: '7' }],
          },
        ],
      },
    });
    await f.sandbox.sendBlockAction({ teamId: ACME, userId: ALICE, viewId: home.view?.id as string, actionId: 'go_offline' });
    const p = interactivityPayload(f.app.received.at(-1)?.body as string);
    expect(p.container).to.deep.equal({ type: 'view', view_id: home.view?.id });
    expect((p.view as { type: string }).type).to.equal('home');
    expect((p.actions as unknown[])[0]).to.deep.include({ action_id: 'go_offline', block_id: 'w7', value: '7' });
  });
});
