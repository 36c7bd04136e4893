/** Styles of the launcher and of the panel's frame, inside the shadow root (the host page's CSS cannot reach them). */
export const launcherCss = (bg: string, fg: string): string => `
:host{all:initial}
*{box-sizing:border-box}
.launcher{position:fixed;z-index:2147483000;right:20px;bottom:20px;display:flex;align-items:center;gap:8px;border:0;margin:0;cursor:pointer;
background:${bg};color:${fg};font:600 15px/1.2 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;box-shadow:0 6px 24px rgba(15,23,42,.22);transition:transform .15s,box-shadow .15s}
.launcher:hover{transform:translateY(-2px);box-shadow:0 10px 30px rgba(15,23,42,.28)}
.launcher:focus-visible{outline:3px solid ${bg};outline-offset:3px}
.launcher[hidden]{display:none}
.launcher.left{right:auto;left:20px}
.launcher.chip{bottom:0;height:46px;padding:0 20px;border-radius:14px 14px 0 0;max-width:520px}
.launcher.chip .label,.launcher.tab .label{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.launcher.button{width:60px;height:60px;border-radius:50%;justify-content:center;padding:0}
.launcher.tab{top:50%;bottom:auto;right:0;padding:16px 11px;border-radius:0 12px 12px 0;writing-mode:vertical-rl;transform:translateY(-50%) rotate(180deg)}
.launcher.tab svg{transform:rotate(90deg)}
.launcher.tab.left{left:0;right:auto;border-radius:12px 0 0 12px}
.launcher.tab:hover{transform:translateY(-50%) rotate(180deg) translateX(2px)}
.badge{position:absolute;top:-6px;right:-6px;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#e11d48;color:#fff;font:700 12px/22px system-ui,sans-serif;text-align:center;writing-mode:horizontal-tb;box-shadow:0 0 0 2px #fff}
.peek{position:fixed;z-index:2147483000;right:20px;bottom:70px;max-width:290px;padding:12px 36px 12px 14px;background:#fff;color:#1f2937;border:0;border-radius:14px 14px 4px 14px;text-align:left;cursor:pointer;
font:14.5px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;box-shadow:0 8px 30px rgba(15,23,42,.22);animation:pop .2s ease-out}
.peek.left{right:auto;left:20px;border-radius:14px 14px 14px 4px}
:host([data-mode=button]) .peek{bottom:92px}
:host([data-mode=tab]) .peek{bottom:20px}
.peek .x{position:absolute;top:6px;right:6px;width:24px;height:24px;border:0;border-radius:6px;background:none;color:#64748b;cursor:pointer;font-size:18px;line-height:1}
.frame{position:fixed;z-index:2147483001;right:20px;bottom:20px;width:370px;height:min(600px,calc(100vh - 40px));background:#fff;border-radius:16px;
box-shadow:0 12px 48px rgba(15,23,42,.28);overflow:hidden;display:flex;flex-direction:column;animation:pop .18s ease-out}
.frame[hidden]{display:none}
:host([data-mode=button]) .frame.standard{bottom:92px;height:min(600px,calc(100vh - 112px))}
.frame.left{right:auto;left:20px}
.frame.sidebar{top:0;bottom:0;right:0;height:100%;width:380px;border-radius:0}
.frame.sidebar.left{left:0}
.frame.inline{position:relative;right:auto;bottom:auto;width:100%;height:100%;border-radius:12px;box-shadow:0 2px 12px rgba(15,23,42,.12);animation:none;z-index:auto}
.frame.mobile{inset:0!important;width:100%!important;height:100%!important;border-radius:0}
@keyframes pop{from{opacity:0;transform:translateY(12px) scale(.98)}}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (prefers-reduced-motion:reduce){*,::before,::after{animation:none!important;transition:none!important}}
`;
