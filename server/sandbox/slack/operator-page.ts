// The operator page: a small Slack-like client for the sandbox (HTML, CSS and vanilla JS, refreshed by SSE).
// Elements carry stable ids and data-attributes (op-*, data-ts, data-action-id …) for browser tests.
import { escapeHtml, pageShell } from './html';

const css = `
body { height: 100vh; overflow: hidden; }
.op { display: grid; grid-template-columns: 260px 1fr 380px; grid-template-rows: minmax(0, 1fr); height: 100vh; }
.op.no-side .op-side { display: none; }
.op.no-side { grid-template-columns: 260px 1fr; }
.op-nav { background: var(--aubergine); color: #e8dfe8; display: flex; flex-direction: column; overflow-y: auto; }
.op-nav header { padding: 14px 16px; border-bottom: 1px solid #5a2a5b; }
.op-nav header h1 { font-size: 17px; margin: 0 0 8px; color: #fff; }
.op-nav label { display: block; font-size: 12px; color: #cfc3cf; margin-top: 8px; }
.op-nav select { width: 100%; margin-top: 2px; background: #fff; }
.op-nav .presence { display: flex; align-items: center; gap: 8px; margin-top: 10px; font-size: 13px; }
.dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; border: 1.5px solid #9b8a9b; }
.dot.active { background: #2bac76; border-color: #2bac76; }
.op-nav h2 { font-size: 13px; font-weight: 600; color: #cfc3cf; margin: 16px 16px 4px; }
.op-nav ul { list-style: none; margin: 0; padding: 0; }
.op-nav li a { display: block; padding: 3px 16px; color: #e8dfe8; text-decoration: none; font-size: 15px; cursor: pointer; }
.op-nav li a.not-member { color: #a08fa0; }
.op-nav li a.archived { text-decoration: line-through; }
.op-nav li a.current { background: var(--accent); color: #fff; }
.op-nav li a:hover:not(.current) { background: var(--aubergine-2); }
.op-nav form { display: flex; gap: 4px; padding: 6px 16px; }
.op-nav form input { flex: 1; min-width: 0; padding: 3px 6px; font-size: 13px; }
.op-nav form button { padding: 2px 8px; font-size: 13px; }
.op-nav .app-state { margin: auto 16px 14px; font-size: 12px; color: #cfc3cf; }
.op-nav .faults { margin: 0 16px 14px; font-size: 12px; color: #cfc3cf; }
.op-nav .faults summary { cursor: pointer; }
.op-nav .faults form { display: grid; grid-template-columns: 1fr 1fr; gap: 4px; padding: 6px 0 0; }
.op-nav .faults form select, .op-nav .faults form input { font-size: 12px; min-width: 0; padding: 2px 4px; }
.op-nav .faults form .wide { grid-column: 1 / -1; }
.op-nav .faults ul { margin: 6px 0 0; }
.op-nav .faults li { padding: 1px 0; }
.op-nav .faults code { color: #fff; background: #5a2a5b; padding: 0 3px; border-radius: 3px; }
.op-main { display: flex; flex-direction: column; min-width: 0; min-height: 0; background: #fff; }
.op-main > header { padding: 10px 18px; border-bottom: 1px solid var(--border); display: flex; align-items: center; gap: 12px; min-height: 56px; }
.op-main > header h2 { margin: 0; font-size: 18px; }
.op-main > header .topic { color: var(--muted); font-size: 13px; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.channel-tools { display: flex; gap: 6px; }
.members { font-size: 12px; color: var(--muted); display: flex; gap: 4px; align-items: center; white-space: nowrap; }
.channel-tools button { font-size: 12px; padding: 2px 8px; }
.op-scroll { flex: 1; min-height: 0; overflow-y: auto; padding: 8px 0; }
.msg { display: grid; grid-template-columns: 40px 1fr; gap: 8px; padding: 6px 18px; position: relative; }
.msg:hover { background: #f8f8f8; }
.msg img.avatar { width: 36px; height: 36px; border-radius: 6px; }
.msg .who { font-weight: 700; }
.msg .app-tag { font-size: 10px; background: #e8e8e8; color: #555; padding: 0 4px; border-radius: 3px; margin-left: 4px; font-weight: 600; vertical-align: middle; }
.msg .when { color: var(--muted); font-size: 12px; margin-left: 6px; }
.msg .text { white-space: normal; word-wrap: break-word; }
.msg .edited { color: var(--muted); font-size: 12px; }
.reactions { margin-top: 4px; }
.reaction { display: inline-block; border: 1px solid var(--border); border-radius: 12px; padding: 0 8px; font-size: 13px; margin-right: 4px; }
.msg .tools { display: none; position: absolute; right: 16px; top: -10px; background: #fff; border: 1px solid var(--border); border-radius: 6px; padding: 2px; gap: 2px; }
.msg:hover .tools, .msg:focus-within .tools { display: flex; }
.msg .tools button { border: 0; padding: 2px 8px; font-size: 12px; }
.msg .replies { margin-top: 4px; font-size: 13px; color: var(--accent); font-weight: 600; cursor: pointer; display: inline-flex; gap: 4px; align-items: center; background: none; border: 0; padding: 0; }
.msg .replies img { width: 20px; height: 20px; border-radius: 4px; }
.msg.tombstone .text { color: var(--muted); font-style: italic; }
.ephemeral { margin: 6px 18px; border-left: 4px solid #e8912d; background: #fff8ee; padding: 6px 10px; border-radius: 4px; }
.ephemeral .label { font-size: 12px; color: var(--muted); }
.ephemeral button.dismiss { float: right; border: 0; background: none; color: var(--muted); }
.composer { border: 1px solid #bbb; border-radius: 8px; margin: 8px 18px 14px; }
.composer textarea { width: 100%; border: 0; resize: none; padding: 10px; min-height: 44px; outline: none; border-radius: 8px; }
.composer .bar { display: flex; align-items: center; justify-content: space-between; padding: 4px 8px; border-top: 1px solid #eee; font-size: 12px; color: var(--muted); }
.composer .bar label { cursor: pointer; }
.composer .bar input[type=file] { display: none; }
.notice { margin: 8px 18px; padding: 8px 12px; background: #f4f4f4; border-radius: 6px; display: flex; gap: 10px; align-items: center; }
.op-side { border-left: 1px solid var(--border); display: flex; flex-direction: column; min-width: 0; min-height: 0; background: #fff; }
.op-side > header { padding: 10px 16px; border-bottom: 1px solid var(--border); display: flex; justify-content: space-between; align-items: center; min-height: 56px; }
.op-side > header h3 { margin: 0; font-size: 16px; }
.op-side .divider-count { margin: 4px 18px; font-size: 12px; color: var(--muted); border-bottom: 1px solid #eee; }
.deliveries { font-size: 12px; padding: 8px 16px; overflow-y: auto; }
.deliveries li { list-style: none; padding: 3px 0; border-bottom: 1px solid #f0f0f0; }
.deliveries .bad { color: var(--danger); }
.deliveries summary { cursor: pointer; }
.deliveries .try { color: var(--muted); margin: 2px 0 2px 14px; word-break: break-all; }
.deliveries ul { padding: 0; margin: 0; }
.bk-section { display: flex; gap: 10px; align-items: flex-start; margin: 4px 0; }
.bk-section .bk-text { flex: 1; }
.bk-fields { display: grid; grid-template-columns: 1fr 1fr; gap: 4px 16px; margin-top: 4px; }
.bk-context { color: var(--muted); font-size: 12px; display: flex; gap: 6px; align-items: center; margin: 4px 0; flex-wrap: wrap; }
.bk-context img { width: 16px; height: 16px; border-radius: 3px; }
.bk-actions { display: flex; gap: 6px; flex-wrap: wrap; margin: 6px 0; }
.bk-button { font-size: 13px; font-weight: 600; padding: 3px 10px; }
.bk-button.primary { background: var(--green); color: #fff; border-color: var(--green); }
.bk-button.danger { color: #fff; background: var(--danger); border-color: var(--danger); }
.bk-header { font-size: 17px; font-weight: 700; margin: 6px 0; }
.bk-divider { border: 0; border-top: 1px solid #e3e3e3; margin: 8px 0; }
.bk-image img { max-width: 360px; border-radius: 6px; }
.bk-input { margin: 10px 0; }
.bk-input > label { display: block; font-weight: 700; margin-bottom: 4px; }
.bk-input .hint { font-size: 12px; color: var(--muted); }
.bk-input .error { font-size: 13px; color: var(--danger); margin-top: 3px; }
.bk-input input[type=text], .bk-input input[type=email], .bk-input input[type=number], .bk-input input[type=url], .bk-input textarea, .bk-input select { width: 100%; }
.bk-input .choice { display: block; font-weight: 400; }
.file-chip { display: inline-flex; gap: 6px; align-items: center; border: 1px solid var(--border); border-radius: 6px; padding: 4px 8px; margin-top: 4px; font-size: 13px; }
.file-chip img { max-width: 240px; max-height: 160px; display: block; }
blockquote { border-left: 3px solid #ddd; margin: 2px 0; padding-left: 8px; color: #444; }
pre { background: #f6f6f6; border: 1px solid #e6e6e6; border-radius: 4px; padding: 6px; white-space: pre-wrap; }
.mention { background: #e8f5fa; color: #1264a3; border-radius: 3px; padding: 0 2px; font-weight: 500; }
.msg .text ul, .msg .text ol, .bk-text ul, .bk-text ol { margin: 2px 0; padding-left: 22px; }
.emoji { font-size: 1.1em; line-height: 1; }
a { color: #1264a3; }
a:focus-visible, button:focus-visible, select:focus-visible { outline: 2px solid #1264a3; outline-offset: 1px; }
.msg.system { grid-template-columns: 40px 1fr; color: var(--muted); }
/* Phones: one column; the channel list becomes a short strip and the thread opens over the channel. */
@media (max-width: 760px) {
  body { overflow: auto; }
  .op, .op.no-side { grid-template-columns: 1fr; grid-template-rows: auto minmax(0, 1fr); height: 100vh; }
  .op-nav { max-height: 30vh; }
  .op-nav header { padding: 8px 12px; }
  .op-nav header h1 { font-size: 15px; margin-bottom: 2px; }
  .op-main { min-height: 0; }
  .op-main > header { flex-wrap: wrap; min-height: 0; padding: 8px 12px; }
  .op-side { position: fixed; inset: 30vh 0 0 0; z-index: 5; display: none; box-shadow: 0 -4px 16px rgba(0,0,0,.15); }
  .op.thread-open .op-side { display: flex; }
  .composer .bar span { display: none; }
  .msg { padding: 6px 12px; }
}
.modal-backdrop { position: fixed; inset: 0; background: rgba(0,0,0,.45); display: none; align-items: center; justify-content: center; z-index: 10; }
.modal-backdrop.open { display: flex; }
.modal { width: 520px; max-height: 86vh; background: #fff; border-radius: 10px; display: flex; flex-direction: column; box-shadow: 0 10px 40px rgba(0,0,0,.3); }
.modal header { padding: 16px 20px; border-bottom: 1px solid #eee; display: flex; justify-content: space-between; align-items: center; }
.modal header h3 { margin: 0; font-size: 19px; }
.modal .body { padding: 8px 20px; overflow-y: auto; }
.modal footer { padding: 12px 20px; border-top: 1px solid #eee; display: flex; justify-content: flex-end; gap: 8px; }
.home { padding: 16px 24px; overflow-y: auto; flex: 1; }
.toast { position: fixed; bottom: 16px; left: 50%; transform: translateX(-50%); background: #1d1c1d; color: #fff; padding: 8px 14px; border-radius: 6px; font-size: 13px; display: none; z-index: 20; }
.toast.show { display: block; }
.empty { color: var(--muted); padding: 24px 18px; }
`;

/** Where the operator router serves he (the HTML escaper) for the page's script, under the sandbox's base. */
export const HE_SCRIPT_PATH = '/operator/he.js';

const script = String.raw`
(function () {
  var BASE = document.body.getAttribute('data-base');
  var params = new URLSearchParams(location.search);
  var sel = { team: params.get('team') || '', user: params.get('user') || '', channel: params.get('channel') || '', thread: params.get('thread') || '', pane: params.get('pane') || 'channel' };
  var snap = null;
  var modalSig = '';
  var openDeliveries = {};
  var $ = function (id) { return document.getElementById(id); };

  function esc(s) { return he.escape(String(s == null ? '' : s)); }
  function userName(id) { var u = snap && snap.users.find(function (x) { return x.id === id; }); return u ? u.realName : id; }
  function channelName(id) { var c = snap && snap.channels.find(function (x) { return x.id === id; }); return c ? c.name : id; }

  // Slack markup is rendered on the server (mrkdwn.ts): text objects carry html (and plain for places without markup).
  function plain(t) { return t ? String(t.plain != null ? t.plain : (t.text || '')) : ''; }
  function textObj(t) { if (!t) return ''; return t.html != null ? t.html : esc(t.text).replace(/\n/g, '<br>'); }

  // ---- Block Kit ----------------------------------------------------------------------------------
  function element(e, where, blockId) {
    var ids = ' data-action-id="' + esc(e.action_id || '') + '" data-block-id="' + esc(blockId || '') + '"' + where +
      (e.confirm ? ' data-confirm="' + esc(plain(e.confirm.title) + '\n\n' + plain(e.confirm.text)) + '"' : '');
    switch (e.type) {
      case 'button':
        return '<button class="bk-button ' + esc(e.style || '') + '"' + ids + ' data-kind="button"' + (e.url ? ' data-url="' + esc(e.url) + '"' : '') + '>' + textObj(e.text) + '</button>';
      case 'static_select': case 'overflow':
        var opts = (e.options || []).concat((e.option_groups || []).reduce(function (a, g) { return a.concat(g.options || []); }, []));
        return '<select class="bk-select"' + ids + ' data-kind="select"><option value="">' + esc(e.type === 'overflow' ? '...' : (e.placeholder ? plain(e.placeholder) : 'Select…')) + '</option>' + opts.map(function (o) { return '<option value="' + esc(o.value) + '">' + esc(plain(o.text)) + '</option>'; }).join('') + '</select>';
      case 'image':
        return '<img src="' + esc(e.image_url) + '" alt="' + esc(e.alt_text) + '" style="width:64px;height:64px;border-radius:6px">';
      default:
        return '<span class="muted">[' + esc(e.type) + ']</span>';
    }
  }
  function inputElement(block, view) {
    var e = block.element || {};
    var ids = ' data-action-id="' + esc(e.action_id || '') + '" data-block-id="' + esc(block.block_id || '') + '" data-type="' + esc(e.type) + '"';
    var initial = e.initial_value != null ? e.initial_value : (e.initial_option ? e.initial_option.value : '');
    var ph = e.placeholder ? ' placeholder="' + esc(plain(e.placeholder)) + '"' : '';
    var opts = (e.options || []).concat((e.option_groups || []).reduce(function (a, g) { return a.concat(g.options || []); }, []));
    switch (e.type) {
      case 'plain_text_input':
        return e.multiline ? '<textarea rows="4" class="bk-field"' + ids + ph + '>' + esc(initial) + '</textarea>' : '<input type="text" class="bk-field"' + ids + ph + ' value="' + esc(initial) + '">';
      case 'email_text_input': return '<input type="email" class="bk-field"' + ids + ph + ' value="' + esc(initial) + '">';
      case 'url_text_input': return '<input type="url" class="bk-field"' + ids + ph + ' value="' + esc(initial) + '">';
      case 'number_input': return '<input type="number" class="bk-field"' + ids + ph + ' value="' + esc(initial) + '">';
      case 'datepicker': return '<input type="date" class="bk-field"' + ids + ' value="' + esc(e.initial_date || '') + '">';
      case 'timepicker': return '<input type="time" class="bk-field"' + ids + ' value="' + esc(e.initial_time || '') + '">';
      case 'static_select':
        return '<select class="bk-field"' + ids + '><option value="">' + esc(e.placeholder ? plain(e.placeholder) : 'Select…') + '</option>' + opts.map(function (o) { return '<option value="' + esc(o.value) + '"' + (o.value === initial ? ' selected' : '') + '>' + esc(plain(o.text)) + '</option>'; }).join('') + '</select>';
      case 'users_select':
        return '<select class="bk-field"' + ids + '><option value=""></option>' + snap.users.filter(function (u) { return !u.isBot; }).map(function (u) { return '<option value="' + esc(u.id) + '"' + (u.id === e.initial_user ? ' selected' : '') + '>' + esc(u.realName) + '</option>'; }).join('') + '</select>';
      case 'conversations_select': case 'channels_select':
        return '<select class="bk-field"' + ids + '><option value=""></option>' + snap.channels.map(function (c) { return '<option value="' + esc(c.id) + '"' + (c.id === (e.initial_conversation || e.initial_channel) ? ' selected' : '') + '>#' + esc(c.name) + '</option>'; }).join('') + '</select>';
      case 'radio_buttons':
        return '<div class="bk-field"' + ids + '>' + opts.map(function (o) { return '<label class="choice"><input type="radio" name="' + esc(block.block_id) + '" value="' + esc(o.value) + '"' + (o.value === initial ? ' checked' : '') + '> ' + textObj(o.text) + '</label>'; }).join('') + '</div>';
      case 'checkboxes':
        var init = (e.initial_options || []).map(function (o) { return o.value; });
        return '<div class="bk-field"' + ids + '>' + opts.map(function (o) { return '<label class="choice"><input type="checkbox" value="' + esc(o.value) + '"' + (init.indexOf(o.value) >= 0 ? ' checked' : '') + '> ' + textObj(o.text) + '</label>'; }).join('') + '</div>';
      default:
        return '<span class="muted">[' + esc(e.type) + ' input]</span>';
    }
  }
  function blocks(list, where, errors) {
    return (list || []).map(function (b) {
      switch (b.type) {
        case 'section':
          return '<div class="bk-section" data-block-id="' + esc(b.block_id || '') + '"><div class="bk-text">' + textObj(b.text) +
            (b.fields ? '<div class="bk-fields">' + b.fields.map(function (f) { return '<div>' + textObj(f) + '</div>'; }).join('') + '</div>' : '') +
            '</div>' + (b.accessory ? element(b.accessory, where, b.block_id) : '') + '</div>';
        case 'context':
          return '<div class="bk-context">' + (b.elements || []).map(function (e) { return e.type === 'image' ? '<img src="' + esc(e.image_url) + '" alt="' + esc(e.alt_text) + '">' : '<span>' + textObj(e) + '</span>'; }).join('') + '</div>';
        case 'actions':
          return '<div class="bk-actions" data-block-id="' + esc(b.block_id || '') + '">' + (b.elements || []).map(function (e) { return element(e, where, b.block_id); }).join('') + '</div>';
        case 'divider': return '<hr class="bk-divider">';
        case 'header': return '<div class="bk-header">' + textObj(b.text) + '</div>';
        case 'image': return '<div class="bk-image">' + (b.title ? '<div>' + textObj(b.title) + '</div>' : '') + '<img src="' + esc(b.image_url) + '" alt="' + esc(b.alt_text) + '"></div>';
        case 'input':
          var err = errors && errors[b.block_id];
          return '<div class="bk-input" data-block-id="' + esc(b.block_id) + '"><label>' + textObj(b.label) + (b.optional ? ' <span class="muted">(optional)</span>' : '') + '</label>' + inputElement(b) +
            (b.hint ? '<div class="hint">' + textObj(b.hint) + '</div>' : '') + (err ? '<div class="error" data-error-for="' + esc(b.block_id) + '">' + esc(err) + '</div>' : '') + '</div>';
        case 'rich_text': return '';
        default: return '<div class="muted">[' + esc(b.type) + ' block]</div>';
      }
    }).join('');
  }

  // ---- messages ------------------------------------------------------------------------------------
  function time(ts) { var d = new Date(Number(ts) * 1000); return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }); }
  function message(m, inThread) {
    if (m.system) {
      return '<div class="msg system" data-system="' + esc(m.system) + '" data-ts="' + esc(m.ts) + '" data-user="' + esc(m.user) + '"><img class="avatar" src="' + esc(m.image) + '" alt=""><div><span class="who">' + esc(m.author) + '</span><span class="when">' + time(m.ts) + '</span><div class="text">' + m.html + '</div></div></div>';
    }
    var where = ' data-msg-ts="' + esc(m.ts) + '"';
    var tools = '';
    if (!m.tombstone) {
      tools = '<div class="tools">' + (inThread ? '' : '<button data-act="reply" data-ts="' + esc(m.ts) + '">Reply in thread</button>') +
        (m.mine ? '<button data-act="edit" data-ts="' + esc(m.ts) + '">Edit</button><button data-act="delete" data-ts="' + esc(m.ts) + '">Delete</button>' : '') +
        messageShortcuts(m.ts) + '</div>';
    }
    var files = (m.files || []).map(function (f) {
      return '<div class="file-chip" data-file-id="' + esc(f.id) + '">' + (/^image\//.test(f.mimetype) ? '<img src="' + esc(f.url) + '" alt="' + esc(f.name) + '">' : '<a href="' + esc(f.url) + '" target="_blank">' + esc(f.title || f.name) + '</a> <span class="muted">' + f.size + ' B</span>') + '</div>';
    }).join('');
    var reactions = (m.reactions || []).length ? '<div class="reactions">' + m.reactions.map(function (r) { return '<span class="reaction" data-reaction="' + esc(r.name) + '" title=":' + esc(r.name) + ':">' + esc(r.emoji) + ' ' + r.count + '</span>'; }).join('') + '</div>' : '';
    var replies = (!inThread && m.replyCount > 0) ? '<button class="replies" data-act="open-thread" data-ts="' + esc(m.ts) + '">' + m.replyUsers.map(function (u) { return '<img src="' + esc(u.image) + '" alt="">'; }).join('') + m.replyCount + (m.replyCount === 1 ? ' reply' : ' replies') + '</button>' : '';
    var body = m.tombstone ? '<div class="text">This message was deleted.</div>' :
      (m.blocks.length ? '<div class="blocks">' + blocks(m.blocks, where) + '</div>' : '<div class="text">' + m.html + '</div>');
    if (m.tombstone === false && m.blocks.length && m.text && !hasTextBlock(m.blocks)) body = '<div class="text">' + m.html + '</div>' + body;
    return '<div class="msg' + (m.tombstone ? ' tombstone' : '') + '" data-ts="' + esc(m.ts) + '" data-user="' + esc(m.user) + '"' + (m.threadTs ? ' data-thread-ts="' + esc(m.threadTs) + '"' : '') + '>' +
      '<img class="avatar" src="' + esc(m.image) + '" alt="">' +
      '<div><span class="who">' + esc(m.author) + '</span>' + (m.isBot ? '<span class="app-tag">APP</span>' : '') + '<span class="when">' + time(m.ts) + '</span>' +
      (m.replyBroadcast ? ' <span class="muted">replied to a thread</span>' : '') +
      body + (m.edited ? '<span class="edited">(edited)</span>' : '') + files + reactions + replies + '</div>' + tools + '</div>';
  }
  // Without the app's shortcut list, a person can still run one by its callback_id.
  function messageShortcuts(ts) {
    var list = snap.app.shortcuts.filter(function (s) { return s.type === 'message'; });
    if (!list.length) return snap.app.installed ? '<button data-act="shortcut-prompt" data-ts="' + esc(ts) + '">Shortcut…</button>' : '';
    return list.map(function (s) { return '<button data-act="shortcut" data-callback-id="' + esc(s.callbackId) + '" data-ts="' + esc(ts) + '">' + esc(s.name) + '</button>'; }).join('');
  }
  function hasTextBlock(list) { return list.some(function (b) { return b.type === 'section' || b.type === 'header' || b.type === 'context'; }); }
  function ephemeral(e) {
    return '<div class="ephemeral" data-ephemeral-id="' + esc(e.id) + '"><button class="dismiss" data-act="dismiss" data-id="' + esc(e.id) + '">Dismiss</button><div class="label">Only visible to you</div>' +
      (e.blocks.length ? blocks(e.blocks, ' data-ephemeral="' + esc(e.id) + '"') : '<div>' + e.html + '</div>') + '</div>';
  }

  // ---- render --------------------------------------------------------------------------------------
  // Real addresses for the page's links, so they are reachable with the keyboard and open in a new tab.
  function linkTo(change) {
    var q = new URLSearchParams({ team: sel.team, user: sel.user, channel: change.channel || sel.channel });
    return '?' + q.toString();
  }
  var shownChannel = '';
  var shownThread = '';
  function render() {
    if (!snap || !snap.team) return;
    sel.team = snap.team.id; sel.user = snap.me; sel.channel = snap.channel ? snap.channel.id : '';
    var qs = new URLSearchParams({ team: sel.team, user: sel.user, channel: sel.channel });
    if (sel.thread) qs.set('thread', sel.thread);
    if (sel.pane !== 'channel') qs.set('pane', sel.pane);
    history.replaceState(null, '', '?' + qs.toString());

    $('op-team').innerHTML = snap.workspaces.map(function (w) { return '<option value="' + esc(w.id) + '"' + (w.id === sel.team ? ' selected' : '') + '>' + esc(w.name) + '</option>'; }).join('');
    $('op-user').innerHTML = snap.users.filter(function (u) { return !u.isBot; }).map(function (u) { return '<option value="' + esc(u.id) + '"' + (u.id === sel.user ? ' selected' : '') + '>' + esc(u.realName) + ' (@' + esc(u.name) + ')</option>'; }).join('');
    var me = snap.users.find(function (u) { return u.id === snap.me; }) || { presence: 'away' };
    $('op-presence-dot').className = 'dot' + (me.presence === 'active' ? ' active' : '');
    $('op-presence').checked = me.presence === 'active';
    $('op-presence-label').textContent = me.presence === 'active' ? 'Active' : 'Away';
    $('op-channels').innerHTML = snap.channels.map(function (c) {
      var cls = (c.id === sel.channel && sel.pane === 'channel' ? 'current ' : '') + (c.isMember ? '' : 'not-member ') + (c.isArchived ? 'archived' : '');
      return '<li><a href="' + esc(linkTo({ channel: c.id })) + '" class="' + cls + '" data-channel-id="' + esc(c.id) + '" data-channel-name="' + esc(c.name) + '"># ' + esc(c.name) + '</a></li>';
    }).join('');
    $('op-home-link').className = sel.pane === 'home' ? 'current' : '';
    $('op-messages-link').className = sel.pane === 'messages' ? 'current' : '';
    $('op-global-shortcuts').innerHTML = snap.app.shortcuts.filter(function (x) { return x.type === 'global'; }).map(function (x) {
      return '<li><a href="#" data-global-shortcut="' + esc(x.callbackId) + '">» ' + esc(x.name) + '</a></li>';
    }).join('');
    $('op-fault-list').innerHTML = (snap.faults || []).map(function (f) { return '<li><code>' + esc(f.method) + '</code>: ' + esc(f.what) + '</li>'; }).join('') || '<li>None: Slack answers every call.</li>';
    $('op-app-state').innerHTML = snap.app.installed ? esc(snap.app.name) + ' is installed here. <button id="op-uninstall" class="danger" style="font-size:11px;padding:0 6px">Uninstall</button>' : esc(snap.app.name) + ' is not installed in this workspace.';

    var main = $('op-main-body');
    if (sel.pane === 'home') {
      $('op-channel-title').textContent = snap.app.name;
      $('op-channel-topic').textContent = 'App Home';
      $('op-join').style.display = 'none';
      $('op-channel-tools').style.display = 'none';
      $('op-members').innerHTML = '';
      main.innerHTML = '<div class="home" id="op-home">' + (snap.home ? blocks(snap.home.blocks, ' data-view-id="' + esc(snap.home.id) + '"') : '<div class="empty">' + esc(snap.app.name) + ' has not published a Home tab for you yet.</div>') + '</div>';
      $('op-composer').style.display = 'none';
    } else if (sel.pane === 'messages') {
      $('op-channel-title').textContent = snap.app.name;
      $('op-channel-topic').textContent = 'Messages';
      $('op-join').style.display = 'none';
      $('op-channel-tools').style.display = 'none';
      $('op-members').innerHTML = '';
      var stickDm = shownChannel !== 'app-dm' || main.scrollHeight - main.scrollTop - main.clientHeight < 60;
      shownChannel = 'app-dm';
      main.innerHTML = '<div id="op-messages">' + (snap.appDm.map(function (m) { return message(m, true); }).join('') || '<div class="empty">Write to ' + esc(snap.app.name) + ' directly.</div>') + '</div>';
      if (stickDm) scrollToEnd(main);
      $('op-composer').style.display = snap.app.installed ? '' : 'none';
      $('op-text').placeholder = 'Message ' + snap.app.name;
      $('op-file').parentNode.style.display = 'none';
    } else if (snap.channel) {
      var c = snap.channel;
      $('op-channel-title').textContent = '# ' + c.name;
      $('op-channel-topic').textContent = c.topic || c.purpose || '';
      $('op-join').style.display = c.isMember || c.isArchived ? 'none' : '';
      $('op-channel-tools').style.display = c.isMember && !c.isArchived ? '' : 'none';
      var humans = c.members.filter(function (m) { return !m.isBot; });
      var active = humans.filter(function (m) { return m.presence === 'active'; });
      $('op-members').innerHTML = '<span class="dot' + (active.length ? ' active' : '') + '"></span>' + c.members.length + ' members · ' + active.length + ' active';
      $('op-members').title = c.members.map(function (m) { return m.name + (m.isBot ? ' (app)' : ' — ' + m.presence); }).join('\n');
      var list = c.messages.map(function (m) { return message(m, false); }).join('') || '<div class="empty">No messages yet.</div>';
      var eph = snap.ephemerals.filter(function (e) { return !e.threadTs; }).map(ephemeral).join('');
      // A channel opens at its newest message, as in Slack; after that, new messages follow only a reader at the bottom.
      var stick = shownChannel !== c.id || main.scrollHeight - main.scrollTop - main.clientHeight < 60;
      shownChannel = c.id;
      main.innerHTML = '<div id="op-messages">' + list + '</div><div id="op-ephemerals">' + eph + '</div>';
      if (stick) scrollToEnd(main);
      $('op-composer').style.display = c.isMember && !c.isArchived ? '' : 'none';
      $('op-file').parentNode.style.display = '';
      $('op-text').placeholder = 'Message #' + c.name + (snap.app.commands.length ? '  (try ' + snap.app.commands[0] + ' help)' : '');
    }

    var side = $('op-side-body');
    $('op-root').classList.toggle('thread-open', !!(snap.thread && sel.pane === 'channel'));
    if (snap.thread && sel.pane === 'channel') {
      $('op-side-title').textContent = 'Thread';
      $('op-close-thread').style.display = '';
      var t = snap.thread;
      var teph = snap.ephemerals.filter(function (e) { return e.threadTs === t.parent.ts; }).map(ephemeral).join('');
      side.innerHTML = '<div id="op-thread" data-thread-ts="' + esc(t.parent.ts) + '">' + message(t.parent, true) +
        '<div class="divider-count">' + t.replies.length + (t.replies.length === 1 ? ' reply' : ' replies') + '</div>' +
        t.replies.map(function (m) { return message(m, true); }).join('') + teph + '</div>';
      var followThread = shownThread !== t.parent.ts || side.scrollHeight - side.scrollTop - side.clientHeight < 60;
      shownThread = t.parent.ts;
      if (followThread) scrollToEnd(side);
      $('op-thread-composer').style.display = snap.channel && snap.channel.isMember ? '' : 'none';
    } else {
      sel.thread = '';
      $('op-side-title').textContent = 'Deliveries to ' + snap.app.name;
      $('op-close-thread').style.display = 'none';
      $('op-thread-composer').style.display = 'none';
      side.innerHTML = '<div class="deliveries" id="op-deliveries"><ul>' + snap.deliveries.map(function (d) {
        return '<li class="' + (d.ok ? '' : 'bad') + '" data-delivery-id="' + esc(d.id) + '"><details' + (openDeliveries[d.id] ? ' open' : '') + '><summary>' + (d.ok ? '✓' : '✗') + ' ' + esc(d.summary) + ' <span class="muted">' + (d.status || d.failure || '') + (d.attempts > 1 ? ' · ' + d.attempts + ' attempts' : '') + '</span></summary>' +
          d.tries.map(function (a) { return '<div class="try">#' + a.retryNum + (a.retryReason ? ' (' + esc(a.retryReason) + ')' : '') + ': ' + esc(String(a.status || a.failure || '')) + (a.body ? ' <code>' + esc(a.body) + '</code>' : '') + '</div>'; }).join('') + '</details></li>';
      }).join('') + '</ul>' + (snap.deliveries.length ? '' : '<div class="empty">Nothing sent yet.</div>') + '</div>';
    }
    renderModal();
  }

  // Images load after the text: stay at the end while they do.
  function scrollToEnd(box) {
    box.scrollTop = box.scrollHeight;
    box.querySelectorAll('img').forEach(function (img) {
      if (!img.complete) img.addEventListener('load', function () { box.scrollTop = box.scrollHeight; }, { once: true });
    });
  }

  function renderModal() {
    var m = snap.modal;
    var sig = m ? m.id + JSON.stringify(m.blocks) + JSON.stringify(m.errors) + JSON.stringify(m.title) : '';
    if (sig === modalSig) return;
    modalSig = sig;
    var box = $('op-modal');
    if (!m) { box.className = 'modal-backdrop'; box.innerHTML = ''; return; }
    // Re-rendering (new errors, an update) must not lose what the person typed in the same view.
    var shown = box.querySelector('.modal');
    var typed = shown && shown.getAttribute('data-view-id') === m.id ? modalValues() : null;
    box.className = 'modal-backdrop open';
    box.innerHTML = '<div class="modal" data-view-id="' + esc(m.id) + '"><header><h3 id="op-modal-title">' + esc(plain(m.title)) + '</h3></header>' +
      '<div class="body" id="op-modal-body">' + blocks(m.blocks, ' data-view-id="' + esc(m.id) + '"', m.errors) + (m.errors[''] ? '<div class="error">' + esc(m.errors['']) + '</div>' : '') + '</div>' +
      '<footer><button id="op-modal-close" class="secondary">' + esc(m.close ? plain(m.close) : 'Cancel') + '</button>' + (m.submit ? '<button id="op-modal-submit" class="primary">' + esc(plain(m.submit)) + '</button>' : '') + '</footer></div>';
    if (typed) restoreValues(typed);
  }

  function restoreValues(values) {
    document.querySelectorAll('#op-modal .bk-field').forEach(function (el) {
      var b = el.getAttribute('data-block-id'), a = el.getAttribute('data-action-id'), type = el.getAttribute('data-type');
      var v = values[b] && values[b][a];
      if (v === undefined) return;
      if (type === 'checkboxes') el.querySelectorAll('input').forEach(function (i) { i.checked = v.indexOf(i.value) >= 0; });
      else if (type === 'radio_buttons') el.querySelectorAll('input').forEach(function (i) { i.checked = i.value === v; });
      else el.value = v;
    });
  }

  function modalValues() {
    var out = {};
    document.querySelectorAll('#op-modal .bk-field').forEach(function (el) {
      var b = el.getAttribute('data-block-id'), a = el.getAttribute('data-action-id'), type = el.getAttribute('data-type');
      var v;
      if (type === 'checkboxes') v = Array.prototype.map.call(el.querySelectorAll('input:checked'), function (i) { return i.value; });
      else if (type === 'radio_buttons') { var r = el.querySelector('input:checked'); v = r ? r.value : ''; }
      else v = el.value;
      out[b] = out[b] || {}; out[b][a] = v;
    });
    return out;
  }

  // ---- data ----------------------------------------------------------------------------------------
  function load() {
    var qs = new URLSearchParams({ team: sel.team, user: sel.user, channel: sel.channel, thread: sel.thread });
    return fetch(BASE + '/operator/api/snapshot?' + qs.toString()).then(function (r) { return r.json(); }).then(function (s) { snap = s; render(); document.body.setAttribute('data-version', String(s.version)); });
  }
  function toast(text) { var t = $('op-toast'); t.textContent = text; t.className = 'toast show'; clearTimeout(toast.timer); toast.timer = setTimeout(function () { t.className = 'toast'; }, 3500); }
  function post(path, body) {
    body = Object.assign({ team: sel.team, user: sel.user }, body);
    return fetch(BASE + '/operator/api/' + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (res) {
        if (!res.ok) toast('Error: ' + res.error);
        else if (res.skipped === 'required_fields_empty') { /* the modal shows which fields */ }
        else if (res.skipped) toast('Not sent: ' + res.skipped);
        else if (res.delivered === false) toast('The app did not answer (' + (res.failure || res.status) + ')');
        else if (res.command && !res.command.delivered) toast('The command failed: ' + (res.command.skipped || res.command.failure || res.command.status));
        return load().then(function () { return res; });
      });
  }

  // ---- events --------------------------------------------------------------------------------------
  $('op-team').addEventListener('change', function (e) { sel = { team: e.target.value, user: '', channel: '', thread: '', pane: 'channel' }; load(); });
  $('op-user').addEventListener('change', function (e) { sel.user = e.target.value; modalSig = ''; load(); });
  $('op-presence').addEventListener('change', function (e) { post('presence', { presence: e.target.checked ? 'active' : 'away' }); });
  $('op-faults-form').addEventListener('submit', function (e) {
    e.preventDefault();
    post('faults', { fault: $('op-fault-kind').value, method: $('op-fault-method').value, seconds: Number($('op-fault-seconds').value) });
  });
  $('op-faults-clear').addEventListener('click', function () { post('faults', { fault: 'clear' }); });
  $('op-new-channel').addEventListener('submit', function (e) {
    e.preventDefault(); var input = $('op-new-channel-name');
    post('create-channel', { name: input.value.trim() }).then(function (r) { if (r.ok) { input.value = ''; sel.channel = r.channel; sel.pane = 'channel'; load(); } });
  });
  $('op-home-link').addEventListener('click', function (e) { e.preventDefault(); sel.pane = 'home'; sel.thread = ''; post('open-home', {}); });
  $('op-messages-link').addEventListener('click', function (e) { e.preventDefault(); sel.pane = 'messages'; sel.thread = ''; post('open-home', { tab: 'messages' }); });
  $('op-join').addEventListener('click', function () { post('join', { channel: sel.channel }); });
  $('op-close-thread').addEventListener('click', function () { sel.thread = ''; load(); });
  $('op-rename').addEventListener('click', function () {
    var name = prompt('New name for #' + snap.channel.name + ' (lowercase letters, digits, - and _, at most 80 characters)', snap.channel.name);
    if (name && name.trim() !== snap.channel.name) post('rename-channel', { channel: sel.channel, name: name.trim() });
  });
  $('op-archive').addEventListener('click', function () { if (confirm('Archive #' + snap.channel.name + '?')) post('archive-channel', { channel: sel.channel }); });
  $('op-leave').addEventListener('click', function () { post('leave', { channel: sel.channel }); });

  function send(textarea, threadTs) {
    var text = textarea.value.trim(); if (!text) return;
    textarea.value = '';
    var broadcast = !!threadTs && $('op-thread-broadcast').checked;
    if (broadcast) $('op-thread-broadcast').checked = false;
    if (sel.pane === 'messages' && !threadTs) { post('message-app', { text: text }); return; }
    post('post', { channel: sel.channel, text: text, threadTs: threadTs || '', broadcast: broadcast });
  }
  function enterSends(textarea, threadTsFn) {
    textarea.addEventListener('keydown', function (e) { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); send(textarea, threadTsFn()); } });
  }
  enterSends($('op-text'), function () { return ''; });
  enterSends($('op-thread-text'), function () { return sel.thread; });
  $('op-send').addEventListener('click', function () { send($('op-text'), ''); });
  $('op-thread-send').addEventListener('click', function () { send($('op-thread-text'), sel.thread); });
  function upload(input, threadTsFn) {
    input.addEventListener('change', function () {
      var f = input.files && input.files[0]; if (!f) return;
      var reader = new FileReader();
      reader.onload = function () { var b64 = String(reader.result).split(',')[1] || ''; post('upload', { channel: sel.channel, threadTs: threadTsFn(), name: f.name, contentBase64: b64 }); input.value = ''; };
      reader.readAsDataURL(f);
    });
  }
  upload($('op-file'), function () { return ''; });
  upload($('op-thread-file'), function () { return sel.thread; });

  document.addEventListener('click', function (e) {
    var t = e.target.closest ? e.target.closest('[data-channel-id],[data-global-shortcut],[data-act],[data-kind=button],#op-modal-close,#op-modal-submit,#op-uninstall') : null;
    if (!t) return;
    if (t.tagName === 'A') e.preventDefault();
    if (t.hasAttribute('data-global-shortcut')) { post('shortcut', { callbackId: t.getAttribute('data-global-shortcut') }); return; }
    if (t.hasAttribute('data-channel-id')) { sel.channel = t.getAttribute('data-channel-id'); sel.thread = ''; sel.pane = 'channel'; load(); return; }
    if (t.id === 'op-uninstall') { if (confirm('Uninstall ' + snap.app.name + ' from ' + snap.team.name + '?')) post('uninstall', {}); return; }
    if (t.id === 'op-modal-close') { post('close-view', { viewId: snap.modal.id }); return; }
    if (t.id === 'op-modal-submit') { t.disabled = true; post('submit-view', { viewId: snap.modal.id, values: modalValues() }).then(function () { var b = $('op-modal-submit'); if (b) b.disabled = false; }); return; }
    var act = t.getAttribute('data-act');
    var ts = t.getAttribute('data-ts');
    if (act === 'reply' || act === 'open-thread') { sel.thread = ts; load().then(function () { $('op-thread-text').focus(); }); return; }
    if (act === 'dismiss') { post('dismiss', { id: t.getAttribute('data-id') }); return; }
    if (act === 'delete') { if (confirm('Delete this message?')) post('delete', { channel: sel.channel, ts: ts }); return; }
    if (act === 'edit') {
      var all = (snap.channel.messages || []).concat(snap.thread ? [snap.thread.parent].concat(snap.thread.replies) : []);
      var m = all.find(function (x) { return x.ts === ts; });
      var text = prompt('Edit message', m ? m.text : '');
      if (text != null && text.trim()) post('edit', { channel: sel.channel, ts: ts, text: text });
      return;
    }
    if (act === 'shortcut') { post('shortcut', { channel: sel.channel, ts: ts, callbackId: t.getAttribute('data-callback-id') }); return; }
    if (act === 'shortcut-prompt') {
      var callbackId = prompt('callback_id of the message shortcut');
      if (callbackId && callbackId.trim()) post('shortcut', { channel: sel.channel, ts: ts, callbackId: callbackId.trim() });
      return;
    }
    if (t.getAttribute('data-kind') === 'button') {
      // Slack asks first when the element carries a confirm dialog.
      if (t.getAttribute('data-confirm') && !confirm(t.getAttribute('data-confirm'))) return;
      if (t.getAttribute('data-url')) window.open(t.getAttribute('data-url'), '_blank');
      sendAction(t, undefined);
    }
  });
  document.addEventListener('toggle', function (e) {
    var li = e.target.closest && e.target.closest('[data-delivery-id]');
    if (li) openDeliveries[li.getAttribute('data-delivery-id')] = e.target.open;
  }, true);
  document.addEventListener('change', function (e) {
    var t = e.target;
    if (t.getAttribute && t.getAttribute('data-kind') === 'select' && t.value) {
      if (t.getAttribute('data-confirm') && !confirm(t.getAttribute('data-confirm'))) { t.value = ''; return; }
      sendAction(t, t.value);
    }
  });
  function sendAction(el, value) {
    var body = { actionId: el.getAttribute('data-action-id'), blockId: el.getAttribute('data-block-id') };
    if (value !== undefined) body.value = value;
    if (el.getAttribute('data-view-id')) body.viewId = el.getAttribute('data-view-id');
    else if (el.getAttribute('data-ephemeral')) body.ephemeralId = el.getAttribute('data-ephemeral');
    else { body.channel = sel.channel; body.ts = el.getAttribute('data-msg-ts'); }
    post('action', body);
  }

  var es = new EventSource(BASE + '/operator/api/events');
  var lastVersion = -1;
  es.addEventListener('change', function (e) { var v = Number(e.data); if (v !== lastVersion) { lastVersion = v; load(); } });
  load();
})();
`;

export function operatorPage(baseUrl: string, appName: string): string {
  const body = `
<div class="op" id="op-root">
  <nav class="op-nav">
    <header>
      <h1>Slack sandbox</h1>
      <label>Workspace <select id="op-team"></select></label>
      <label>Acting as <select id="op-user"></select></label>
      <div class="presence"><span id="op-presence-dot" class="dot"></span><label style="margin:0;display:flex;gap:6px;align-items:center;color:#fff"><input type="checkbox" id="op-presence"> <span id="op-presence-label">Away</span></label></div>
    </header>
    <h2>Apps</h2>
    <ul><li><a href="#" id="op-home-link">${escapeHtml(appName)} — Home</a></li><li><a href="#" id="op-messages-link">${escapeHtml(appName)} — Messages</a></li></ul>
    <ul id="op-global-shortcuts"></ul>
    <h2>Channels</h2>
    <ul id="op-channels"></ul>
    <form id="op-new-channel"><input id="op-new-channel-name" placeholder="new-channel" maxlength="80" aria-label="New channel name"><button type="submit" class="secondary">Add</button></form>
    <div class="app-state" id="op-app-state"></div>
    <details class="faults" id="op-faults">
      <summary>Slack faults</summary>
      <form id="op-faults-form">
        <select id="op-fault-kind" class="wide" aria-label="Fault">
          <option value="drop">Carried out, answer lost (reset)</option>
          <option value="hang">Carried out, no answer (hang)</option>
          <option value="ratelimit">429 rate limited</option>
          <option value="outage">503 outage</option>
        </select>
        <input id="op-fault-method" value="chat.postMessage" aria-label="Web API method, or * for all">
        <input id="op-fault-seconds" type="number" min="1" max="3600" value="30" aria-label="For how many seconds">
        <button type="submit" class="secondary">Start</button>
        <button type="button" id="op-faults-clear" class="secondary">Clear all</button>
      </form>
      <ul id="op-fault-list"></ul>
    </details>
  </nav>
  <section class="op-main">
    <header><h2 id="op-channel-title"></h2><span class="topic" id="op-channel-topic"></span><span class="members" id="op-members"></span><button id="op-join" class="primary" style="display:none">Join channel</button><span id="op-channel-tools" class="channel-tools"><button id="op-rename">Rename</button><button id="op-archive">Archive</button><button id="op-leave">Leave</button></span></header>
    <div class="op-scroll" id="op-main-body"></div>
    <div class="composer" id="op-composer">
      <textarea id="op-text" rows="2" aria-label="Message"></textarea>
      <div class="bar"><label>+ Attach a file<input type="file" id="op-file"></label><span>Enter to send · Shift+Enter for a new line · /commands go to the app</span><button id="op-send" class="primary">Send</button></div>
    </div>
  </section>
  <aside class="op-side">
    <header><h3 id="op-side-title">Deliveries</h3><button id="op-close-thread" style="display:none" aria-label="Close thread">✕</button></header>
    <div class="op-scroll" id="op-side-body"></div>
    <div class="composer" id="op-thread-composer" style="display:none">
      <textarea id="op-thread-text" rows="2" aria-label="Reply"></textarea>
      <div class="bar"><label>+ Attach a file<input type="file" id="op-thread-file"></label><label><input type="checkbox" id="op-thread-broadcast" style="display:inline"> Also send to channel</label><button id="op-thread-send" class="primary">Reply</button></div>
    </div>
  </aside>
</div>
<div id="op-modal" class="modal-backdrop"></div>
<div id="op-toast" class="toast" role="status"></div>
<script src="${escapeHtml(baseUrl)}${HE_SCRIPT_PATH}"></script>
<script>${script}</script>`;
  return pageShell('Slack sandbox', body, css).replace('<body>', `<body data-base="${escapeHtml(baseUrl)}">`);
}
