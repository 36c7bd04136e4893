import { expect } from 'chai';
import { CloseTexts, meaningfulTerms } from '../../server/answers/wordMatch';

describe('wordMatch', () => {
  it('keeps the words that carry meaning: lowercased, accents folded, stop words of the widget languages left out', () => {
    expect(meaningfulTerms('How do I reset my Password?')).to.deep.equal(['reset', 'password']);
    expect(meaningfulTerms('Où est ma commande ?')).to.deep.equal(['commande']);
    expect(meaningfulTerms('Rückerstattung für meine Bestellung')).to.deep.equal(['ruckerstattung', 'bestellung']);
    // Chinese and Japanese have no spaces: overlapping character pairs.
    expect(meaningfulTerms('密码重置')).to.deep.equal(['密码', '码重', '重置']);
    expect(meaningfulTerms('👋 …')).to.deep.equal([]);
  });

  it('finds texts holding most of the question’s words, with typos and longer forms of a word', () => {
    const texts = new CloseTexts<string>({ question: 1 });
    texts.add('password', { question: 'I forgot my password and cannot log in' });
    texts.add('address', { question: 'Can I change the delivery address of my order?' });
    texts.add('greeting', { question: 'Hello, is anyone there? I have a question about my order' });
    expect(texts.close('change delivery adress for my orders', { share: 0.6, symmetric: true, limit: 3 }).map((c) => c.item)).to.deep.equal(
      ['address'],
    );
    expect(texts.close('forgot password, cannot log in', { share: 0.6, symmetric: true, limit: 3 }).map((c) => c.item)).to.deep.equal([
      'password',
    ]);
    // One shared word is not closeness: "order" alone suggests nothing.
    expect(texts.close('where is my order', { share: 0.6, symmetric: true, limit: 3 })).to.deep.equal([]);
    expect(texts.close('do you sell printers', { share: 0.6, symmetric: true, limit: 3 })).to.deep.equal([]);
  });

  it('with symmetric, leaves out a long past question that holds the new one among many other words', () => {
    const texts = new CloseTexts<string>({ question: 1 });
    texts.add('long', { question: 'Refund for my order, also the invoice address is wrong and the parcel arrived damaged yesterday' });
    expect(texts.close('refund order', { share: 0.6, symmetric: true, limit: 3 })).to.deep.equal([]);
    expect(texts.close('refund order', { share: 0.5, limit: 3 }).map((c) => c.item)).to.deep.equal(['long']);
  });

  it('weighs fields: a label match ranks above the same words deep in a response', () => {
    const texts = new CloseTexts<string>({ label: 3, response: 1 });
    texts.add('body', { label: 'Opening hours', response: 'We answer shipping questions about delivery times within a day.' });
    texts.add('label', { label: 'Shipping and delivery times', response: 'Orders leave the warehouse in two days.' });
    expect(texts.close('what are your delivery times for shipping', { share: 0.5, limit: 3 }).map((c) => c.item)).to.deep.equal([
      'label',
      'body',
    ]);
  });
});
