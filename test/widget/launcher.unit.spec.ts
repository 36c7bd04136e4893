/** The loader's decisions without a DOM: launcher look and visibility, page matching, identify()'s clean-up. */
import { expect } from 'chai';
import { BUILT_IN_TEXTS } from '../../server/shared/widget-texts/all';
import { blacklisted, cleanIdentity, type LauncherState, launcherView, onPage } from '../../web/widget/lib/launcher';
import type { Trigger } from '../../web/widget/lib/types';

const base: LauncherState = {
  style: 'standard',
  usable: true,
  wanted: true,
  online: true,
  hideWhenOffline: false,
  ongoing: false,
  expanded: false,
  unread: 0,
  phone: false,
};
const view = (patch: Partial<LauncherState>, settings = {}) => launcherView({ ...base, ...patch }, settings, BUILT_IN_TEXTS.en.ui);
const trigger = (on: string[], matchType: string): Trigger => ({ uid: 't1', message: 'Hi', after: 0, on, matchType, displayStyle: 'peek' });

describe('widget loader decisions', () => {
  it('shows a chip titled "Chat with us" online and "Leave a message" offline, unless configured', () => {
    expect(view({})).to.include({ visible: true, mode: 'chip', title: 'Chat with us', launcherHidden: false, frameHidden: true });
    expect(view({ online: false }).title).to.equal('Leave a message');
    expect(view({}, { onlineTitle: 'Questions?' }).title).to.equal('Questions?');
    expect(view({ style: 'sidebar' }).mode).to.equal('tab');
  });

  it('turns chip and tab into a round button on phones, where the open panel hides the launcher', () => {
    expect(view({ phone: true })).to.include({ mode: 'button', mobile: true });
    expect(view({ phone: true, expanded: true }).launcherHidden).to.equal(true);
    expect(view({ expanded: true }, { collapsedMode: 'button' }).launcherHidden).to.equal(false);
    expect(view({ phone: true }, { collapsedMode: 'hidden' }).mode).to.equal('hidden');
  });

  it('hides while offline only with hideWhenOffline and no conversation going on', () => {
    expect(view({ online: false, hideWhenOffline: true }).visible).to.equal(false);
    expect(view({ online: false, hideWhenOffline: true, ongoing: true }).visible).to.equal(true);
    expect(view({ wanted: false }).visible).to.equal(false);
    expect(view({ usable: false }).visible).to.equal(false);
  });

  it('keeps the inline panel open and without a launcher; shows the unread badge only while collapsed', () => {
    expect(view({ style: 'inline', phone: true })).to.include({ frameHidden: false, launcherHidden: true, mobile: false });
    expect(view({ unread: 2 }).showBadge).to.equal(true);
    expect(view({ unread: 2, expanded: true }).showBadge).to.equal(false);
  });

  it('words the unread count for screen readers while collapsed, and says nothing without one', () => {
    expect(view({ unread: 1 }).unreadText).to.equal('1 unread message');
    expect(view({ unread: 3 }).unreadText).to.equal('3 unread messages');
    expect(view({ unread: 3, expanded: true }).unreadText).to.equal('');
    expect(view({}).unreadText).to.equal('');
    // In the visitor's language once the widget's texts have come.
    const french = (unread: number) => launcherView({ ...base, unread }, {}, BUILT_IN_TEXTS.fr.ui).unreadText;
    expect(french(1)).to.equal('1 message non lu');
    expect(french(4)).to.equal('4 messages non lus');
    expect(launcherView({ ...base, unread: 2 }, {}, BUILT_IN_TEXTS.he.ui).unreadText).to.equal('2 הודעות שלא נקראו');
  });

  it('matches blacklisted pages by regular expression, or by substring when a pattern is not one', () => {
    expect(blacklisted('style=sidebar\n/checkout', 'https://shop.example/checkout/pay')).to.equal(true);
    expect(blacklisted('^https://other', 'https://shop.example/')).to.equal(false);
    expect(blacklisted('/cart(', 'https://shop.example/cart(1)')).to.equal(true);
    expect(blacklisted(undefined, 'https://shop.example/')).to.equal(false);
  });

  it("matches a trigger's pages by full address or path: exact, startsWith or contains", () => {
    expect(onPage(trigger([], 'contains'), 'https://a.example/x', '/x')).to.equal(true);
    expect(onPage(trigger(['/pricing'], 'exact'), 'https://a.example/pricing', '/pricing')).to.equal(true);
    expect(onPage(trigger(['/pricing'], 'exact'), 'https://a.example/pricing/team', '/pricing/team')).to.equal(false);
    expect(onPage(trigger(['/pricing'], 'startsWith'), 'https://a.example/pricing/team', '/pricing/team')).to.equal(true);
    expect(onPage(trigger(['team'], 'contains'), 'https://a.example/pricing/team', '/pricing/team')).to.equal(true);
  });

  it('keeps only what the hello frame accepts from identify(): a bad e-mail or trait is dropped, not fatal', () => {
    const identity = cleanIdentity(42, { name: '  Jane  ', email: 'not-an-email', plan: 'pro', seats: 3, nested: { a: 1 }, gone: null });
    expect(identity).to.deep.equal({
      userId: '42',
      name: 'Jane',
      email: undefined,
      traits: { name: '  Jane  ', email: 'not-an-email', plan: 'pro', seats: 3, gone: null },
      userHash: undefined,
    });
    expect(cleanIdentity(undefined, { email: 'jane@example.com' }).email).to.equal('jane@example.com');
  });

  it("sends identify()'s userHash apart from the traits, and only when it is 64 hex digits", () => {
    const hash = 'ab'.repeat(32);
    const identity = cleanIdentity('u-1', { name: 'Jane', userHash: hash });
    expect(identity.userHash).to.equal(hash);
    expect(identity.traits).to.deep.equal({ name: 'Jane' });
    expect(cleanIdentity('u-1', { userHash: 'not-hex' }).userHash).to.equal(undefined);
    expect(cleanIdentity('u-1', { userHash: 'ab'.repeat(33) }).userHash).to.equal(undefined);
    expect(cleanIdentity('u-1', { userHash: 42 }).traits).to.deep.equal({});
  });
});
