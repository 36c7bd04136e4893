import { expect } from 'chai';

describe('toolchain', () => {
  it('runs TypeScript tests', () => {
    expect([1, 2].map((n) => n * 2)).to.deep.equal([2, 4]);
  });
});
