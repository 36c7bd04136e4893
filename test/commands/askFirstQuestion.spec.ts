import { expect } from 'chai';
import { askFirstQuestion, sayAsWidget } from '../../server/commands/askFirstQuestion';
import { addQuestionGroup } from '../slack/operatorHelpers';
import { useChat } from './chat';

describe('askFirstQuestion', () => {
  const { server, at, conversation, thread } = useChat();

  it('shows the sanitised prompt as the widget, asks the first question, and notes the start in the thread (escaped)', async () => {
    const group = await addQuestionGroup(server, at.widget, {
      label: 'Triage <!channel>',
      shortcut: 't',
      question: 'Sales or support?',
      answers: ['Sales'],
    });
    group.prompt = 'Hi <b>there</b><script>x</script>';
    await group.save();
    const ce = await at.widget.widget();
    await askFirstQuestion(server.parley.relay, await conversation(), ce, group);
    const prompt = await at.chat.socket.next('msg', (f) => f.message.from === 'operator');
    expect(prompt.message.text).to.equal('Hi there');
    expect(prompt.message.html).to.not.include('<script>');
    expect(prompt.message.author?.name).to.equal(ce.agentLabel || 'Support');
    expect((await at.chat.socket.next('question')).text).to.equal('Sales or support?');
    await thread((texts) => expect(texts.join('\n')).to.include('Question group “Triage &lt;!channel&gt;” started.'));
  });

  it('says nothing for a prompt that is only markup', async () => {
    const ce = await at.widget.widget();
    await sayAsWidget(server.parley.relay, await conversation(), ce, '<p> </p>');
    await sayAsWidget(server.parley.relay, await conversation(), ce, 'Still here');
    const next = await at.chat.socket.next('msg', (f) => f.message.from === 'operator');
    expect(next.message.text).to.equal('Still here');
  });
});
