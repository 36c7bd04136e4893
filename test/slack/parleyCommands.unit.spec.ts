import { expect } from 'chai';
import { helpLine, helpText, PARLEY_COMMANDS, parseCommand } from '../../server/slack/listeners/parley';

describe('/parley subcommands come from one table', () => {
  it('gives every command a help line that the help text shows', () => {
    const help = helpText();
    for (const command of PARLEY_COMMANDS) {
      expect(command.help.trim(), command.name).to.not.equal('');
      if (command.name !== 'help') expect(help, command.name).to.include(helpLine(command));
    }
  });

  it('names no command in the help text that the table does not have', () => {
    const names = new Set(PARLEY_COMMANDS.map((c) => c.name));
    const named = [...helpText().matchAll(/`\/parley ([a-z-]+)/g)].map((m) => m[1] ?? '');
    expect(named.length).to.be.greaterThan(PARLEY_COMMANDS.length / 2);
    for (const word of named) expect(names.has(word), `/parley ${word} in the help`).to.equal(true);
  });

  it('reaches each command by its name, its aliases and its other spellings, and no word reaches two', () => {
    const seen = new Map<string, string>();
    for (const command of PARLEY_COMMANDS) {
      for (const word of [command.name, ...(command.aliases ?? []), ...(command.spellings ?? [])]) {
        expect(seen.get(word), `${word} of ${command.name}`).to.equal(undefined);
        seen.set(word, command.name);
        expect(parseCommand(`${word.toUpperCase()} 12 more`)).to.deep.equal({ sub: command.name, args: ['12', 'more'] });
      }
    }
    expect(parseCommand('ask email 3').sub).to.equal('ask-email');
    expect(parseCommand('').sub).to.equal('help');
  });
});
