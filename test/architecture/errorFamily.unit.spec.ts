/**
 * Parley's errors are one family (server/errors.ts: AppError with a code, a status and isReportable), so each
 * transport maps every error it meets in one place. This scan fails on a class in server/ that extends Error itself,
 * unless the comment above it says why it is not an AppError ("Not an AppError: …"). The embedded store and the
 * sandboxes are left out: they answer in the error shapes of the products they stand in for (MongoDB, Slack, Stripe).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { sourceFiles } from '../helpers/sourceFiles';

const ROOT = path.join(__dirname, '..', '..');
const OWN_ERROR_SHAPES = ['server/embedded-mongo/', 'server/sandbox/'];
const FAMILY = 'server/errors.ts';

/** `file:line: code` for each class extending Error whose doc comment does not say why it is not an AppError. */
export function errorsOutsideTheFamily(file: string, text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => {
    if (!/\bclass\s+\w+\s+extends\s+Error\b/.test(line)) return [];
    const above = lines.slice(Math.max(0, i - 6), i).join('\n');
    return /Not an AppError:/.test(above) ? [] : [`${file}:${i + 1}: ${line.trim()}`];
  });
}

describe('one error family', () => {
  it('finds no error class in server/ outside AppError that does not say why', () => {
    const files = sourceFiles(path.join(ROOT, 'server'), /\.ts$/)
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .filter((file) => file !== FAMILY && !OWN_ERROR_SHAPES.some((dir) => file.startsWith(dir)));
    expect(files.length).to.be.greaterThan(200);
    const found = files.flatMap((file) => errorsOutsideTheFamily(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(found, `error classes outside server/errors.ts's family:\n${found.join('\n')}`).to.deep.equal([]);
  });

  it('recognises a bare Error subclass and accepts one whose comment says why', () => {
    expect(errorsOutsideTheFamily('x.ts', 'export class PermanentJobError extends Error {}')).to.have.length(1);
    expect(errorsOutsideTheFamily('x.ts', '/** A failure. */\nclass Failure extends Error {\n}')).to.have.length(1);
    expect(
      errorsOutsideTheFamily('x.ts', '/**\n * Not an AppError: thrown before Parley exists.\n */\nclass ConfigError extends Error {}'),
    ).to.deep.equal([]);
    expect(errorsOutsideTheFamily('x.ts', 'export class Refused extends AppError {}')).to.deep.equal([]);
  });
});
