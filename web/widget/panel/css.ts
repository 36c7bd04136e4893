/** The panel's styles, scoped by the shadow root. Colours from the widget's settings come in as custom properties. */
export const panelCss = `
.panel{--bg:#2f6fed;--fg:#fff;position:relative;display:flex;flex-direction:column;height:100%;min-height:0;background:#fff;color:#1f2937;
font:14.5px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",sans-serif;-webkit-font-smoothing:antialiased}
.panel *{box-sizing:border-box}
.panel [hidden]{display:none!important}
:where(.panel) :where(button,input,textarea){font:inherit;color:inherit}
.head{display:flex;align-items:center;gap:10px;padding:14px 12px 14px 16px;background:var(--bg);color:var(--fg);flex:none}
.head .who{flex:1;min-width:0}
.head h2{margin:0;font-size:16px;font-weight:650;line-height:1.25;overflow:hidden;overflow-wrap:anywhere;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2}
.head p{margin:2px 0 0;font-size:12.5px;display:flex;align-items:center;gap:6px}
.dot{width:8px;height:8px;border-radius:50%;background:#9ca3af;box-shadow:0 0 0 2px rgba(255,255,255,.35)}
.dot.on{background:#22c55e}
.team{width:36px;height:36px;border-radius:50%;object-fit:cover;background:rgba(255,255,255,.2);flex:none}
.icon{display:grid;place-items:center;width:34px;height:34px;border:0;border-radius:8px;background:transparent;color:inherit;cursor:pointer;flex:none}
.icon:hover{background:rgba(127,127,127,.18)}
.icon:focus-visible,.btn:focus-visible,.choice:focus-visible{outline:2px solid var(--bg);outline-offset:2px}
.head .icon:focus-visible{outline-color:var(--fg)}
.menu{position:absolute;right:12px;top:58px;z-index:2;background:#fff;border-radius:10px;box-shadow:0 8px 30px rgba(15,23,42,.2);padding:6px;min-width:160px}
.menu button{display:block;width:100%;text-align:left;border:0;background:none;padding:8px 12px;border-radius:6px;cursor:pointer}
.menu button:hover,.menu button:focus-visible{background:#f1f5f9;outline:none}
.banner{margin:0;padding:9px 14px;background:#fef3c7;color:#78350f;font-size:13px;border-bottom:1px solid #fde68a}
.banner.info{background:#eff6ff;color:#1e3a8a;border-color:#dbeafe}
.banner[hidden]{display:none}
.body{position:relative;flex:1;min-height:0;display:flex;flex-direction:column;background:#f8fafc}
.scroll{flex:1;min-height:0;overflow-y:auto;padding:16px 14px 8px;overscroll-behavior:contain}
.empty{display:flex;flex-direction:column;align-items:center;gap:6px;margin:28px 16px;color:var(--bg);text-align:center}
.empty p{margin:0;color:#64748b;font-size:13.5px}
.log{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:10px}
.intro{text-align:center;color:#64748b;font-size:13px;margin:4px 12px 14px}
.msg{display:flex;gap:8px;align-items:flex-end;max-width:100%}
.msg .col{display:flex;flex-direction:column;min-width:0;max-width:80%}
.msg.visitor{flex-direction:row-reverse}
.msg.visitor .col{align-items:flex-end}
.author{font-size:12px;color:#64748b;margin:0 4px 3px}
.bubble{padding:9px 13px;border-radius:16px;white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;box-shadow:0 1px 2px rgba(15,23,42,.08);border:1px solid #e8edf3}
.bubble p{margin:0 0 .4em}.bubble p:last-child{margin:0}
.bubble a{color:inherit;text-decoration:underline}
.operator .bubble{border-bottom-left-radius:5px}
.visitor .bubble{background:var(--bg);color:var(--fg);border-color:transparent;border-bottom-right-radius:5px}
.msg.sending .bubble{opacity:.65}
.msg.failed .bubble{background:#fee2e2;color:#7f1d1d}
.meta{font-size:11.5px;color:#64748b;margin:3px 4px 0;display:flex;gap:6px;align-items:center}
.meta button{border:0;background:none;color:#b91c1c;text-decoration:underline;cursor:pointer;padding:0;font-size:11.5px}
.avatar{width:28px;height:28px;border-radius:50%;object-fit:cover;flex:none;background:#e2e8f0}
.avatar.none{visibility:hidden}
.system{align-self:center;text-align:center;color:#475569;font-size:12.5px;background:#eef2f7;padding:5px 12px;border-radius:12px;max-width:90%}
.files{display:flex;flex-direction:column;gap:4px;margin-top:4px}
.files a{display:block;padding:7px 10px;border-radius:10px;background:#fff;border:1px solid #e2e8f0;color:#1e40af;text-decoration:none;font-size:13px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:240px}
.files img{max-width:220px;max-height:180px;border-radius:10px;display:block}
.card{align-self:stretch;background:#fff;border:1px solid #e2e8f0;border-radius:14px;padding:12px 14px;box-shadow:0 1px 3px rgba(15,23,42,.06)}
.card p{margin:0 0 10px}
.row{display:flex;gap:8px;flex-wrap:wrap;align-items:center}
.row .field{flex:1;min-width:0;width:auto}
.card .label{display:block;font-weight:550;margin:0 0 6px}
.card textarea.field{min-height:70px;margin-bottom:8px}
.card form+form,.card div+form{margin-top:12px;padding-top:12px;border-top:1px solid #eef2f7}
.choice{border:1.5px solid var(--bg);color:var(--bg);background:#fff;border-radius:18px;padding:6px 14px;cursor:pointer;font-weight:550}
.choice:hover:not(:disabled){background:var(--bg);color:var(--fg)}
.choice:disabled{opacity:.55;cursor:default}
.choice.picked{background:var(--bg);color:var(--fg);opacity:1}
.preview{display:block;width:100%;max-height:260px;object-fit:contain;object-position:center top;margin:0 0 10px;border:1px solid #e2e8f0;border-radius:8px;background:#f8fafc}
.typing{display:flex;align-items:center;gap:8px;color:#64748b;font-size:12.5px;padding:0 16px 6px;min-height:20px}
.typing[hidden]{display:none}
.typing i{display:inline-block;width:6px;height:6px;margin-right:3px;border-radius:50%;background:#94a3b8;animation:blink 1.2s infinite both}
.typing i:nth-child(2){animation-delay:.2s}.typing i:nth-child(3){animation-delay:.4s}
@keyframes blink{0%,80%,100%{opacity:.25}40%{opacity:1}}
.composer{display:flex;align-items:flex-end;gap:6px;padding:10px 10px 10px 12px;border-top:1px solid #e5e7eb;background:#fff;flex:none}
.composer textarea::placeholder{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;color:#94a3b8}
.composer textarea{flex:1;overflow:hidden;resize:none;border:0;outline:none;max-height:120px;min-height:24px;padding:6px 4px;background:transparent;line-height:1.4}
.composer .icon{color:#64748b}
.composer .send{color:var(--bg)}
.composer .icon:disabled{opacity:.4;cursor:default}
.form{padding:20px 18px;display:flex;flex-direction:column;gap:12px;overflow-y:auto}
.form p{margin:0;color:#334155}
.form a,.card a{color:var(--bg)}
.form label{display:flex;flex-direction:column;gap:4px;font-size:12.5px;font-weight:600;color:#475569}
.field{width:100%;border:1px solid #cbd5e1;border-radius:10px;padding:9px 12px;background:#fff;font-weight:400;font-size:14.5px}
.field:focus{outline:2px solid var(--bg);outline-offset:-1px;border-color:transparent}
textarea.field{min-height:110px;resize:vertical}
.btn{border:0;border-radius:10px;padding:10px 16px;background:var(--bg);color:var(--fg);font-weight:650;cursor:pointer}
.btn:disabled{opacity:.6;cursor:default}
.btn.ghost{background:#fff;color:#334155;border:1px solid #cbd5e1}
.err{color:#b91c1c;font-size:13px;margin:0}
.err:empty{display:none}
.thanks{text-align:center;padding:40px 24px;color:#334155}
.thanks b{display:block;font-size:32px;margin-bottom:8px;color:var(--bg)}
.foot{flex:none;padding:6px 12px 8px;text-align:center;font-size:11.5px;color:#94a3b8;background:#fff}
.foot a{color:#64748b}
.foot .brand{color:#64748b;text-decoration:none}
.foot .brand:hover{text-decoration:underline}
.overlay{position:absolute;inset:0;background:rgba(15,23,42,.35);display:grid;place-items:center;padding:20px;z-index:3}
.overlay .card{max-width:300px}
.answers{flex:none;background:#fff}
.suggest{list-style:none;margin:0;padding:8px 10px 0;display:flex;flex-direction:column;gap:6px}
.answers .suggest{border-top:1px solid #e5e7eb}
.hit{display:block;width:100%;text-align:start;border:1px solid #e2e8f0;border-radius:10px;background:#fff;padding:7px 10px;cursor:pointer}
.hit:hover{border-color:var(--bg)}
.hit:focus-visible{outline:2px solid var(--bg);outline-offset:1px}
.hit b{display:block;font-weight:600;color:#1e3a8a}
.hit span{display:block;font-size:12.5px;color:#475569;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.auto .bubble{white-space:normal}
.auto .suggest{padding:6px 0}
.avatar.bot{display:grid;place-items:center;font-weight:700;font-size:14px;color:#475569}
.ask p,.given{margin:8px 0 6px;font-weight:550}
.article{position:absolute;inset:0;z-index:2;background:#fff;display:flex;flex-direction:column}
.article .bar{flex:none;padding:10px 12px;border-bottom:1px solid #e5e7eb;display:flex}
.article .bar+.doc+.bar{border-top:1px solid #e5e7eb;border-bottom:0;justify-content:center}
.article .doc{flex:1;min-height:0;overflow-y:auto;padding:14px 16px}
.article h3{margin:0 0 10px;font-size:19px}
.prose h3,.prose h4,.prose h5{margin:14px 0 6px;font-size:15.5px}
.prose p,.prose ul,.prose ol,.prose blockquote{margin:0 0 10px}
.prose img{max-width:100%;height:auto}
.prose pre{white-space:pre-wrap;background:#f1f5f9;padding:8px;border-radius:8px}
.doc a{color:#1d4ed8}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
`;
