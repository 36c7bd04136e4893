import { ValidationError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { PermissionsView } from '../shared/types';
import { upgradeScopes, widgetScopeStatus } from './slackPermissions';

/** A Slack authorisation link for the widget's team asking for these bot and user scopes (the caller builds it). */
export type AuthorizeLink = (botScopes: string[], userScopes: string[]) => Promise<string>;

/**
 * The Slack permissions page of a widget: every scope it needs and whether its team granted it, one link asking for
 * everything missing, and, when more than one scope is missing, one link per scope. A widget without a Slack team
 * gets no links.
 */
export async function widgetPermissions(models: Models, ce: ChatEndpointDocument, link: AuthorizeLink): Promise<PermissionsView> {
  const status = await widgetScopeStatus(models, ce);
  const wanted = upgradeScopes(status);
  const canAuthorize = ce.slackTeamId !== '';
  const selective =
    canAuthorize && status.missing.length > 1
      ? await Promise.all(
          status.missing.map(async (s) => ({
            ...s,
            url: await link(s.type === 'bot' ? [s.scope] : [], s.type === 'user' ? [s.scope] : []),
          })),
        )
      : [];
  return {
    step: ce.Step,
    mainUserSet: ce.slackMainUser !== '',
    oauthV1: ce.OauthV1,
    ...status,
    upgradeUrl: canAuthorize ? await link(wanted.bot, wanted.user) : '',
    selective,
  };
}

/**
 * The scopes an authorisation link of the widget asks for: those named in the request, else for an upgrade what is
 * missing (or the whole needed set, how a legacy install migrates), else the install set. Asking for nothing is
 * refused (400).
 */
export async function scopesToAuthorize(
  models: Models,
  ce: ChatEndpointDocument,
  request: { purpose: 'install' | 'swap_user' | 'upgrade'; bot?: string[]; user?: string[] },
  install: { bot: readonly string[]; user: readonly string[] },
): Promise<{ bot: readonly string[]; user: readonly string[] }> {
  let scopes: { bot: readonly string[]; user: readonly string[] } =
    request.purpose === 'upgrade' ? upgradeScopes(await widgetScopeStatus(models, ce)) : install;
  if (request.bot || request.user) scopes = { bot: request.bot ?? [], user: request.user ?? [] };
  if (scopes.bot.length === 0 && scopes.user.length === 0) throw new ValidationError('Ask for at least one scope', 'no_scopes');
  return scopes;
}
