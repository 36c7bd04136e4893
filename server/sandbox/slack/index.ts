// The Slack sandbox: an honest local stand-in for Slack that Parley's unchanged @slack/web-api and @slack/bolt
// talk to. Mount `router` at the path of `baseUrl`; point the WebClient at `apiUrl` and the install button at
// `authorizeUrl`. README.md lists the URLs, the test knobs and the choices made.
import express from 'express';
import { actionPayload, findElement, missingRequired, viewValues } from './blocks';
import { oauthRouter } from './oauth';
import { operatorRouter } from './operator';
import {
  archiveChannel,
  deleteMessage,
  installApp,
  joinChannel,
  leaveChannel,
  openAppDm,
  postMessage,
  renameChannel,
  SlackApiError,
  uninstallApp,
  updateMessage,
} from './ops';
import type { PresentContext } from './present';
import { messageObject, viewObject } from './present';
import { RateLimiter } from './rate-limits';
import { fileAndResponseRoutes } from './routes';
import { buildData, readSeed } from './seed';
import { Sender } from './sender';
import { SandboxState } from './state';
import type { Installation } from './types';
import { webApiRouter } from './web-api';

export type * from './contract';
export { SlackApiError } from './ops';
export { defaultSeed } from './seed';
export type { DeliveryResult } from './sender';
export { SandboxState } from './state';
export type * from './types';

import type { SlackSandbox, SlackSandboxOptions } from './contract';

export function createSlackSandbox(opts: SlackSandboxOptions): SlackSandbox {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const appId = opts.app.appId ?? 'A0PARLEY01';
  const appName = opts.app.name ?? 'Parley';
  const loaded = opts.dataFile ? SandboxState.load(opts.dataFile) : null;
  const state = new SandboxState(loaded ?? buildData(readSeed(opts.seed), baseUrl), opts.dataFile);
  if (!loaded && opts.dataFile) state.saveNow();
  const ctx: PresentContext = { state, baseUrl, appId };
  const sender = new Sender(ctx, {
    signingSecret: opts.app.signingSecret,
    commands: opts.app.commands ?? ['/parley'],
    verificationToken: opts.app.verificationToken ?? `sandbox${appId.toLowerCase()}verif`,
    eventsUrl: opts.app.eventsUrl,
    interactivityUrl: opts.app.interactivityUrl,
    commandsUrl: opts.app.commandsUrl,
    retryDelaysMs: opts.retryDelaysMs ?? [1000, 60_000, 300_000],
    ackTimeoutMs: opts.ackTimeoutMs ?? 3000,
    triggerTtlMs: opts.triggerTtlMs ?? 3000,
  });
  // Retries a previous run left pending go out when due (the app may be starting too: a refused one is retried).
  sender.resumePendingRetries();
  const autoEvents = opts.autoEvents ?? true;
  const logFailure = (err: unknown) => console.error('[slack sandbox] delivery failed', err);
  const subscribed = (event: Record<string, unknown>): boolean => {
    if (!opts.app.events) return true;
    const kind = event.channel_type === 'group' ? 'groups' : event.channel_type === 'im' ? 'im' : 'channels';
    const name = event.type === 'message' ? `message.${kind}` : String(event.type);
    return opts.app.events.includes(name);
  };
  const holds: { match: (event: Record<string, unknown>) => boolean; events: [string, Record<string, unknown>][] }[] = [];
  state.on('slack-event', (teamId: string, event: Record<string, unknown>) => {
    if (!autoEvents || !subscribed(event)) return;
    const hold = holds.find((h) => h.match(event));
    if (hold) hold.events.push([teamId, event]);
    else sender.sendEvent(teamId, event).catch(logFailure);
  });
  state.on('slack-event-forced', (teamId: string, event: Record<string, unknown>, inst: Installation) => {
    if (autoEvents && subscribed(event)) sender.sendEvent(teamId, event, { installation: inst }).catch(logFailure);
  });

  const requireUser = (teamId: string, userId: string) => {
    const u = state.user(userId);
    if (!u || u.teamId !== teamId) throw new SlackApiError('user_not_found');
    return u;
  };
  const requireChannel = (teamId: string, channelId: string) => {
    const c = state.channel(channelId);
    if (!c || c.teamId !== teamId) throw new SlackApiError('channel_not_found');
    return c;
  };
  const requireMessage = (channelId: string, ts: string) => {
    const m = state.message(channelId, ts);
    if (!m || m.tombstone) throw new SlackApiError('message_not_found');
    return m;
  };

  const limiter = new RateLimiter(opts.rateLimits === 'slack');
  const sandbox: SlackSandbox = {
    setRateLimits(mode) {
      limiter.enabled = mode === 'slack';
    },
    router: express.Router(),
    apiUrl: `${baseUrl}/api/`,
    authorizeUrl: `${baseUrl}/oauth/v2/authorize`,
    state,
    appId,

    setAppUrls(urls) {
      Object.assign(sender.config, Object.fromEntries(Object.entries(urls).filter(([, v]) => typeof v === 'string')));
    },

    addWorkspaces(seed) {
      const data = buildData(seed, baseUrl);
      const fresh = data.workspaces.filter((w) => !state.workspace(w.id));
      const ids = new Set(fresh.map((w) => w.id));
      state.data.workspaces.push(...fresh);
      state.data.users.push(...data.users.filter((u) => ids.has(u.teamId) && !state.user(u.id)));
      state.data.channels.push(...data.channels.filter((c) => ids.has(c.teamId) && !state.channel(c.id)));
      state.changed();
    },

    install({ teamId, userId, botScopes, userScopes = [] }) {
      const ws = state.workspace(teamId);
      if (!ws) throw new Error(`no workspace ${teamId}`);
      return installApp(ctx, { appId, name: appName }, ws, userId, botScopes, userScopes);
    },

    sendEvent(teamId, event, o) {
      return sender.sendEvent(teamId, event as Record<string, unknown>, o);
    },

    holdEvents(match) {
      const hold = { match, events: [] as [string, Record<string, unknown>][] };
      holds.push(hold);
      return {
        held: () => hold.events.length,
        async release() {
          holds.splice(holds.indexOf(hold), 1);
          await Promise.all(hold.events.map(([teamId, event]) => sender.sendEvent(teamId, event)));
        },
      };
    },

    redeliverEvent(eventId, reason) {
      return sender.redeliverEvent(eventId, reason);
    },

    verifyEventsUrl() {
      return sender.verifyEventsUrl();
    },

    sendSlashCommand(input) {
      return sender.sendSlashCommand(input);
    },

    async sendBlockAction(input) {
      requireUser(input.teamId, input.userId);
      if (input.message) {
        const m = requireMessage(input.message.channelId, input.message.ts);
        const found = findElement(m.blocks, input.actionId, input.blockId);
        return sender.sendInteraction(
          input.teamId,
          input.userId,
          sender.blockActionFromMessage(m, input.userId, actionPayload(found, input.actionId, input.blockId, input.value)),
        );
      }
      if (input.ephemeralId) {
        const e = state.data.ephemerals.find((x) => x.id === input.ephemeralId);
        if (!e || e.teamId !== input.teamId || e.user !== input.userId) throw new SlackApiError('message_not_found');
        const found = findElement(e.blocks, input.actionId, input.blockId);
        return sender.sendInteraction(
          input.teamId,
          input.userId,
          sender.blockActionFromEphemeral(e, actionPayload(found, input.actionId, input.blockId, input.value)),
        );
      }
      if (input.viewId) {
        const v = state.view(input.viewId);
        if (!v || v.teamId !== input.teamId) throw new SlackApiError('not_found');
        const found = findElement(v.definition.blocks, input.actionId, input.blockId);
        return sender.sendInteraction(
          input.teamId,
          input.userId,
          sender.blockActionFromView(v, actionPayload(found, input.actionId, input.blockId, input.value)),
        );
      }
      throw new Error('sendBlockAction needs a message, a viewId or an ephemeralId');
    },

    async sendViewSubmission(input) {
      requireUser(input.teamId, input.userId);
      const v = state.view(input.viewId);
      if (!v || v.teamId !== input.teamId || v.user !== input.userId || v.type !== 'modal' || !v.open) throw new SlackApiError('not_found');
      v.values = viewValues(v.definition.blocks, input.values);
      const required = missingRequired(v.definition.blocks, v.values);
      if (Object.keys(required).length > 0) {
        v.errors = required;
        state.changed();
        return { ok: false, skipped: 'required_fields_empty', attempts: [], viewErrors: required };
      }
      const payload = {
        type: 'view_submission',
        view: viewObject(ctx, v),
        response_urls: [],
      };
      return sender.sendInteraction(input.teamId, input.userId, payload, { view: v });
    },

    async closeView(input) {
      const v = state.view(input.viewId);
      if (!v || v.teamId !== input.teamId || v.user !== input.userId || !v.open) throw new SlackApiError('not_found');
      v.open = false;
      state.changed();
      if (v.definition.notify_on_close !== true) return null;
      return sender.sendInteraction(input.teamId, input.userId, { type: 'view_closed', view: viewObject(ctx, v), is_cleared: false });
    },

    async sendShortcut(input) {
      requireUser(input.teamId, input.userId);
      if (input.message) {
        const m = requireMessage(input.message.channelId, input.message.ts);
        const channel = state.channel(m.channel);
        const responseUrl = sender.newResponseUrl({ teamId: input.teamId, channel: m.channel, user: input.userId, threadTs: m.threadTs });
        return sender.sendInteraction(input.teamId, input.userId, {
          type: 'message_action',
          callback_id: input.callbackId,
          action_ts: `${Date.now() / 1000}`,
          channel: { id: m.channel, name: channel?.name ?? '' },
          message_ts: m.ts,
          message: messageObject(ctx, m),
          response_url: responseUrl,
        });
      }
      return sender.sendInteraction(input.teamId, input.userId, {
        type: 'shortcut',
        callback_id: input.callbackId,
        action_ts: `${Date.now() / 1000}`,
      });
    },

    async postAsUser(input) {
      const u = requireUser(input.teamId, input.userId);
      const c = requireChannel(input.teamId, input.channelId);
      if (!c.members.includes(u.id)) throw new SlackApiError('not_in_channel');
      if (input.threadTs) requireMessage(c.id, input.threadTs);
      return postMessage(ctx, {
        teamId: input.teamId,
        channel: c,
        user: u.id,
        text: input.text,
        threadTs: input.threadTs,
        replyBroadcast: !!input.threadTs && input.broadcast === true,
      });
    },

    async editAsUser(input) {
      const m = requireMessage(requireChannel(input.teamId, input.channelId).id, input.ts);
      if (m.user !== input.userId) throw new SlackApiError('cant_update_message');
      updateMessage(ctx, m, { text: input.text, editor: input.userId });
      return m;
    },

    async deleteAsUser(input) {
      const m = requireMessage(requireChannel(input.teamId, input.channelId).id, input.ts);
      if (m.user !== input.userId) throw new SlackApiError('cant_delete_message');
      deleteMessage(ctx, m);
    },

    async joinChannel(input) {
      requireUser(input.teamId, input.userId);
      joinChannel(ctx, requireChannel(input.teamId, input.channelId), input.userId);
    },

    async leaveChannel(input) {
      requireUser(input.teamId, input.userId);
      leaveChannel(ctx, requireChannel(input.teamId, input.channelId), input.userId);
    },

    async renameChannel(input) {
      renameChannel(ctx, requireChannel(input.teamId, input.channelId), input.name);
    },

    async archiveChannel(input) {
      requireUser(input.teamId, input.userId);
      archiveChannel(ctx, requireChannel(input.teamId, input.channelId), input.userId);
    },

    async uninstall(teamId) {
      if (!uninstallApp(ctx, teamId)) throw new SlackApiError('app_not_installed');
    },

    openAppHome(input) {
      requireUser(input.teamId, input.userId);
      const tab = input.tab ?? 'home';
      const home = tab === 'home' ? state.homeView(input.teamId, input.userId) : undefined;
      return sender.sendEvent(input.teamId, {
        type: 'app_home_opened',
        user: input.userId,
        channel: `D${input.userId.slice(1)}`,
        tab,
        ...(home ? { view: viewObject(ctx, home) } : {}),
      });
    },

    async messageApp(input) {
      const u = requireUser(input.teamId, input.userId);
      const dm = openAppDm(ctx, input.teamId, u.id);
      return postMessage(ctx, { teamId: input.teamId, channel: dm, user: u.id, text: input.text });
    },

    appDmMessages(input) {
      return state.channelMessages(`D${input.userId.slice(1)}`).filter((m) => m.teamId === input.teamId);
    },

    responseUrl(input) {
      return sender.newResponseUrl({ teamId: input.teamId, channel: input.channelId, user: input.userId });
    },

    settled() {
      return sender.settled();
    },

    async close() {
      sender.close();
      state.removeAllListeners();
      await state.flush();
    },
  };

  sandbox.router.use(
    webApiRouter(ctx, sender, { clientId: opts.app.clientId, clientSecret: opts.app.clientSecret, appId, name: appName }, limiter),
  );
  sandbox.router.use(
    oauthRouter(ctx, {
      clientId: opts.app.clientId,
      name: appName,
      redirectUrls: opts.app.redirectUrls,
      codeTtlMs: opts.codeTtlMs ?? 10 * 60_000,
    }),
  );
  sandbox.router.use(fileAndResponseRoutes(ctx, sender));
  sandbox.router.use(
    operatorRouter(ctx, sandbox, { appName, shortcuts: opts.app.shortcuts ?? [], commands: opts.app.commands ?? ['/parley'] }),
  );
  return sandbox;
}
