/** The open panel's focus trap without a DOM: where Tab and Shift+Tab go at the ends of the dialog's controls. */
import { expect } from 'chai';
import { wrapFocus } from '../../web/widget/panel/focus';

describe('widget panel focus trap', () => {
  const controls = ['options', 'minimise', 'attach', 'message', 'send'];

  it('goes round: Tab on the last control moves to the first, Shift+Tab on the first to the last', () => {
    expect(wrapFocus(controls, 'send', false)).to.equal('options');
    expect(wrapFocus(controls, 'options', true)).to.equal('send');
  });

  it("leaves the browser's own move between controls inside the dialog alone", () => {
    expect(wrapFocus(controls, 'attach', false)).to.equal(undefined);
    expect(wrapFocus(controls, 'attach', true)).to.equal(undefined);
    expect(wrapFocus(controls, 'send', true)).to.equal(undefined);
  });

  it('brings focus that is outside the dialog back in at the end Tab comes from', () => {
    expect(wrapFocus(controls, 'page link', false)).to.equal('options');
    expect(wrapFocus(controls, null, true)).to.equal('send');
  });

  it('does nothing for a dialog without controls', () => {
    expect(wrapFocus([], null, false)).to.equal(undefined);
  });
});
