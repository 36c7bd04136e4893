/** The chat download's CSV cells against csv-stringify, which writes the overview's and was the reference. */
import { expect } from 'chai';
import { stringify } from 'csv-stringify/sync';
import { csvCell, guardCell } from '../../server/reports/export';

describe('chat download CSV cells', () => {
  const tricky = [
    'Vera',
    '',
    'Boston, US',
    'She said "hi"',
    'two\nlines',
    'carriage\rreturn',
    '=SUM(A1:A9)',
    '+1 555',
    '-2',
    '@here',
    '\tindented',
    '\rfirst',
    '=HYPERLINK("http://x","y"),z',
    '{"plan":"gold","seats":3}',
    'héllo ✓ 日本',
    ' padded ',
    "it's",
  ];

  it('writes every cell as csv-stringify does, formula guard and quoting included', () => {
    const expected = stringify([tricky], { cast: { string: guardCell } });
    expect(`${tricky.map(csvCell).join(',')}\n`).to.equal(expected);
  });
});
