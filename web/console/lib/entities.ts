/**
 * Text that arrives with HTML entities in it (Slack's &amp; &lt; &gt;, and the numeric entities Slack topics may
 * carry: spec section 9) shown as characters, decoded by the browser's own HTML parser rather than by hand. A
 * textarea's content is text only, so every entity is decoded in one pass and nothing in the text becomes markup.
 */
let decoder: HTMLTextAreaElement | undefined;

export function decodeEntities(text: string): string {
  decoder ??= document.createElement('textarea');
  decoder.innerHTML = text;
  return decoder.value;
}
