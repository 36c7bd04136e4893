/** The hint under a text an owner writes for visitors: the Markdown it takes (server/ownerText.ts). */
export function MarkdownHint() {
  return (
    <>
      Write <code className="inline-code">**bold**</code>, <code className="inline-code">_italic_</code> and{' '}
      <code className="inline-code">[a link](https://example.com)</code>; a bare web address becomes a link too.
    </>
  );
}
