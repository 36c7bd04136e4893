/**
 * The words of the mails a visitor receives (replies they did not see, a transcript), in each of the widget's
 * languages. The owner's own wording (the widget's title, "You", the agent's label) comes from the widget's texts
 * with the owner's overrides (conversations/widgetLanguage.ts); these are Parley's. `{operator}`, `{site}`,
 * `{count}`, `{name}` and `{number}` are filled in by the templates (fill()).
 */
import type { WidgetLocale } from '../shared/widget-texts';

export type MailTexts = {
  /** The subject of the mail of unseen replies. */
  replySubject: string;
  repliedOne: string;
  repliedMany: string;
  answerHint: string;
  continueButton: string;
  /** Before the chat's link in the plain-text part. */
  continueText: string;
  earlier: string;
  why: string;
  unsubscribe: string;
  /** Before the unsubscribe link in the plain-text part. */
  unsubscribeText: string;
  transcriptSubject: string;
  transcriptWhy: string;
  /** The visitor's name when they gave none. */
  visitor: string;
  /** Between a name and their words in a line of the conversation ("Alice: …"), as the language writes it. */
  said: string;
};

export const MAIL_TEXTS: Record<WidgetLocale, MailTexts> = {
  en: {
    replySubject: '{operator} replied to your chat on {site}',
    repliedOne: '{operator} replied:',
    repliedMany: '{operator} sent {count} replies:',
    answerHint: 'Answer this mail to reply; your answer goes straight to the chat.',
    continueButton: 'Continue the chat on the website',
    continueText: 'Or continue on the website:',
    earlier: 'Earlier in the conversation',
    why: 'You get this mail because you chatted on {site}.',
    unsubscribe: 'Unsubscribe',
    unsubscribeText: 'No more e-mails about this chat:',
    transcriptSubject: 'Transcript of your chat with {name} (#{number})',
    transcriptWhy: 'You get this mail because a transcript of this chat was asked for.',
    visitor: 'Visitor',
    said: ': ',
  },
  es: {
    replySubject: '{operator} respondió a tu chat en {site}',
    repliedOne: '{operator} respondió:',
    repliedMany: '{operator} envió {count} respuestas:',
    answerHint: 'Responde a este correo para contestar; tu respuesta llega directamente al chat.',
    continueButton: 'Seguir el chat en el sitio web',
    continueText: 'O sigue en el sitio web:',
    earlier: 'Antes en la conversación',
    why: 'Recibes este correo porque chateaste en {site}.',
    unsubscribe: 'Darse de baja',
    unsubscribeText: 'No recibir más correos sobre este chat:',
    transcriptSubject: 'Transcripción de tu chat con {name} (n.º {number})',
    transcriptWhy: 'Recibes este correo porque se pidió una transcripción de este chat.',
    visitor: 'Visitante',
    said: ': ',
  },
  fr: {
    replySubject: '{operator} a répondu à votre discussion sur {site}',
    repliedOne: '{operator} a répondu :',
    repliedMany: '{operator} a envoyé {count} réponses :',
    answerHint: 'Répondez à cet e-mail pour répondre ; votre réponse arrive directement dans la discussion.',
    continueButton: 'Continuer la discussion sur le site',
    continueText: 'Ou continuez sur le site :',
    earlier: 'Plus tôt dans la conversation',
    why: 'Vous recevez cet e-mail parce que vous avez discuté sur {site}.',
    unsubscribe: 'Se désabonner',
    unsubscribeText: 'Ne plus recevoir d’e-mails sur cette discussion :',
    transcriptSubject: 'Transcription de votre discussion avec {name} (n° {number})',
    transcriptWhy: 'Vous recevez cet e-mail parce qu’une transcription de cette discussion a été demandée.',
    visitor: 'Visiteur',
    said: ' : ',
  },
  de: {
    replySubject: '{operator} hat auf Ihren Chat auf {site} geantwortet',
    repliedOne: '{operator} hat geantwortet:',
    repliedMany: '{operator} hat {count} Antworten geschickt:',
    answerHint: 'Antworten Sie auf diese E-Mail; Ihre Antwort kommt direkt im Chat an.',
    continueButton: 'Chat auf der Website fortsetzen',
    continueText: 'Oder auf der Website weiterschreiben:',
    earlier: 'Früher im Gespräch',
    why: 'Sie erhalten diese E-Mail, weil Sie auf {site} gechattet haben.',
    unsubscribe: 'Abbestellen',
    unsubscribeText: 'Keine E-Mails mehr zu diesem Chat:',
    transcriptSubject: 'Verlauf Ihres Chats mit {name} (Nr. {number})',
    transcriptWhy: 'Sie erhalten diese E-Mail, weil der Verlauf dieses Chats angefordert wurde.',
    visitor: 'Besucher',
    said: ': ',
  },
  pt: {
    replySubject: '{operator} respondeu ao seu chat em {site}',
    repliedOne: '{operator} respondeu:',
    repliedMany: '{operator} enviou {count} respostas:',
    answerHint: 'Responda a este e-mail para responder; a sua resposta vai diretamente para o chat.',
    continueButton: 'Continuar o chat no site',
    continueText: 'Ou continue no site:',
    earlier: 'Antes na conversa',
    why: 'Recebe este e-mail porque conversou em {site}.',
    unsubscribe: 'Cancelar inscrição',
    unsubscribeText: 'Não receber mais e-mails sobre este chat:',
    transcriptSubject: 'Transcrição do seu chat com {name} (n.º {number})',
    transcriptWhy: 'Recebe este e-mail porque foi pedida uma transcrição deste chat.',
    visitor: 'Visitante',
    said: ': ',
  },
  it: {
    replySubject: '{operator} ha risposto alla tua chat su {site}',
    repliedOne: '{operator} ha risposto:',
    repliedMany: '{operator} ha inviato {count} risposte:',
    answerHint: 'Rispondi a questa e-mail per replicare; la tua risposta arriva direttamente nella chat.',
    continueButton: 'Continua la chat sul sito',
    continueText: 'Oppure continua sul sito:',
    earlier: 'Prima nella conversazione',
    why: 'Ricevi questa e-mail perché hai chattato su {site}.',
    unsubscribe: 'Annulla iscrizione',
    unsubscribeText: 'Nessun’altra e-mail su questa chat:',
    transcriptSubject: 'Trascrizione della tua chat con {name} (n. {number})',
    transcriptWhy: 'Ricevi questa e-mail perché è stata richiesta la trascrizione di questa chat.',
    visitor: 'Visitatore',
    said: ': ',
  },
  nl: {
    replySubject: '{operator} heeft gereageerd op je chat op {site}',
    repliedOne: '{operator} antwoordde:',
    repliedMany: '{operator} stuurde {count} antwoorden:',
    answerHint: 'Beantwoord deze e-mail om te reageren; je antwoord komt direct in de chat.',
    continueButton: 'Ga verder met de chat op de website',
    continueText: 'Of ga verder op de website:',
    earlier: 'Eerder in het gesprek',
    why: 'Je krijgt deze e-mail omdat je hebt gechat op {site}.',
    unsubscribe: 'Afmelden',
    unsubscribeText: 'Geen e-mails meer over deze chat:',
    transcriptSubject: 'Transcript van je chat met {name} (nr. {number})',
    transcriptWhy: 'Je krijgt deze e-mail omdat er om een transcript van deze chat is gevraagd.',
    visitor: 'Bezoeker',
    said: ': ',
  },
  ja: {
    replySubject: '{site} でのチャットに {operator} が返信しました',
    repliedOne: '{operator} からの返信：',
    repliedMany: '{operator} から {count} 件の返信：',
    answerHint: 'このメールに返信すると、その内容がそのままチャットに届きます。',
    continueButton: 'ウェブサイトでチャットを続ける',
    continueText: 'ウェブサイトで続ける場合：',
    earlier: 'これまでの会話',
    why: '{site} でチャットをされたため、このメールをお送りしています。',
    unsubscribe: '配信停止',
    unsubscribeText: 'このチャットに関するメールを停止する：',
    transcriptSubject: '{name} とのチャットの記録（#{number}）',
    transcriptWhy: 'このチャットの記録が依頼されたため、このメールをお送りしています。',
    visitor: '訪問者',
    said: '：',
  },
  'zh-Hans': {
    replySubject: '{operator} 回复了您在 {site} 的聊天',
    repliedOne: '{operator} 回复：',
    repliedMany: '{operator} 发送了 {count} 条回复：',
    answerHint: '直接回复此邮件即可作答，您的回复会送达聊天。',
    continueButton: '在网站上继续聊天',
    continueText: '或在网站上继续：',
    earlier: '之前的对话',
    why: '您收到此邮件，是因为您在 {site} 上进行过聊天。',
    unsubscribe: '退订',
    unsubscribeText: '不再接收关于此聊天的邮件：',
    transcriptSubject: '您与 {name} 的聊天记录（#{number}）',
    transcriptWhy: '您收到此邮件，是因为有人请求了此聊天的记录。',
    visitor: '访客',
    said: '：',
  },
  ar: {
    replySubject: 'ردّ {operator} على محادثتك في {site}',
    repliedOne: 'ردّ {operator}:',
    repliedMany: 'أرسل {operator} عدد {count} من الردود:',
    answerHint: 'ردّ على هذه الرسالة للإجابة؛ يصل ردّك مباشرةً إلى المحادثة.',
    continueButton: 'متابعة المحادثة على الموقع',
    continueText: 'أو تابع على الموقع:',
    earlier: 'في وقت سابق من المحادثة',
    why: 'تصلك هذه الرسالة لأنك تحدثت معنا على {site}.',
    unsubscribe: 'إلغاء الاشتراك',
    unsubscribeText: 'لا مزيد من الرسائل حول هذه المحادثة:',
    transcriptSubject: 'نص محادثتك مع {name} (رقم {number})',
    transcriptWhy: 'تصلك هذه الرسالة لأنه طُلب نص هذه المحادثة.',
    visitor: 'زائر',
    said: ': ',
  },
  he: {
    replySubject: '{operator} השיב/ה לצ׳אט שלך ב-{site}',
    repliedOne: '{operator} השיב/ה:',
    repliedMany: '{operator} שלח/ה {count} תשובות:',
    answerHint: 'השיבו למייל הזה כדי לענות; התשובה מגיעה ישירות לצ׳אט.',
    continueButton: 'להמשך הצ׳אט באתר',
    continueText: 'או להמשיך באתר:',
    earlier: 'מוקדם יותר בשיחה',
    why: 'קיבלת את המייל הזה כי שוחחת איתנו ב-{site}.',
    unsubscribe: 'הסרה מרשימת התפוצה',
    unsubscribeText: 'ללא מיילים נוספים על הצ׳אט הזה:',
    transcriptSubject: 'תמליל הצ׳אט שלך עם {name} (מס׳ {number})',
    transcriptWhy: 'קיבלת את המייל הזה כי התבקש תמליל של הצ׳אט הזה.',
    visitor: 'מבקר/ת',
    said: ': ',
  },
};
