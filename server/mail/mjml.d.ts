/** The part of mjml (5.x, which ships no types) the mail layout calls. */
declare module 'mjml' {
  type MjmlError = { line: number; message: string; tagName: string; formattedMessage: string };
  type MjmlOptions = {
    validationLevel?: 'strict' | 'soft' | 'skip';
    minify?: boolean;
    beautify?: boolean;
    /** Web fonts to link when font-family names them (MJML's default links Google Fonts). */
    fonts?: Record<string, string>;
  };
  export default function mjml2html(mjml: string, options?: MjmlOptions): Promise<{ html: string; errors: MjmlError[] }>;
}
