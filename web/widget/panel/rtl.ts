/**
 * Right-to-left languages (Arabic, Hebrew): the panel is drawn mirrored. Flex rows and text follow `dir` by
 * themselves; these are the few places the panel's styles (css.ts) say left or right.
 */
export const rtlCss = `
.panel[dir=rtl] .head{padding:14px 16px 14px 12px}
.panel[dir=rtl] .menu{right:auto;left:12px}
.panel[dir=rtl] .menu button{text-align:right}
.panel[dir=rtl] .operator .bubble{border-bottom-left-radius:16px;border-bottom-right-radius:5px}
.panel[dir=rtl] .visitor .bubble{border-bottom-right-radius:16px;border-bottom-left-radius:5px}
.panel[dir=rtl] .composer{padding:10px 12px 10px 10px}
.panel[dir=rtl] .typing i{margin-right:0;margin-left:3px}
.panel[dir=rtl] .send svg{transform:scaleX(-1)}
`;
