/**
 * The contract between the settings frame (SettingsPage) and its tabs.
 *
 * - Each tab is its own lazily loaded module `tabs/<Name>Tab.tsx` whose default export is a component taking
 *   `SettingsTabProps`. The frame renders it only for a widget at setup Step 3 (otherwise it shows a link to the
 *   setup), inside the page header (title, room name, tab bar) and below the page's 'Error:' banner.
 * - `ce` is the widget as the server last answered it (fresh from GET /users/current when the page opened, then
 *   the answer of every save). A tab keeps its own draft and compares it with `ce` to know what changed.
 * - `save(changes)` sends `changes` (only the fields the tab edits) to PUT /v1/chat_endpoints/{id}/update_config.
 *   On success `ce` becomes the server's answer, the dirty mark is cleared and it resolves true. On a 400 it shows
 *   the server's Message in the red 'Error:' banner at the top, scrolls there and resolves false. A 403 has
 *   already ended the session (api/client.ts). Other failures also show in the banner and resolve false.
 * - `useSaveButton()` (saveButton.tsx) gives the §4 button states: `run(() => save(...))` shows 'Saving...',
 *   then 'Saved' for 1.5 s, cleared after a further 1.5 s, then 'Save Changes'. `<SaveButton state={...} />`
 *   renders it.
 * - `setDirty(true)` while the tab has unsaved edits: leaving the tab (tab bar, sidebar, any in-app link, closing
 *   the browser tab) then asks first. A successful `save` clears it; set it false yourself after other saves.
 * - `showError(message)` / `clearError()` drive the same banner for calls the tab makes itself (its own endpoints:
 *   triggers, saved replies, question groups, bots). `replaceCe(ce)` takes a widget a tab's own call answered.
 * - `plan` is the account's plan; `locked` is true when a gated tab's feature (triggers, questionGroups,
 *   savedReplies, bots) is not in it. Render `<UpgradeWarning feature="..." />` (UpgradeWarning.tsx) then.
 */
import type { ChatEndpointSettings, ChatEndpointView, CurrentUser, PlanView } from '../../../../server/shared';

/** Fields a tab may send to update_config. */
export type SettingsChanges = Partial<ChatEndpointSettings>;

export type SettingsTabProps = {
  ce: ChatEndpointView;
  user: CurrentUser;
  plan: PlanView;
  /** The tab's feature is not in the plan (always false for ungated tabs). */
  locked: boolean;
  save: (changes: SettingsChanges) => Promise<boolean>;
  replaceCe: (ce: ChatEndpointView) => void;
  setDirty: (dirty: boolean) => void;
  showError: (message: string) => void;
  clearError: () => void;
};
