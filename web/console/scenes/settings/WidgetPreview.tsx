/**
 * A live preview of the visitor widget: the real chat panel bundle (the file the loader would load), mounted in
 * an iframe and fed the draft settings, so the owner sees every change as they type, before saving. The panel
 * gets the same context the loader gives it, except that it never connects (a socket URL no browser accepts): nothing reaches
 * Slack and no visitor is recorded. Online or offline is the owner's choice, to see both screens.
 */
import { useEffect, useRef, useState } from 'react';
import type { ChatEndpointSettings } from '../../../../server/shared';
import type { VISITOR_SETTING_KEYS } from '../../../../server/shared/widget-config';
import type { UiTexts } from '../../../../server/shared/widget-texts';

/** What the panel bundle hands over (web/widget/lib/types.ts PanelFactory), as far as the preview uses it. */
type PanelHandle = { expand(): void; refresh(): void };
type PanelFactory = (ctx: Record<string, unknown>) => PanelHandle;
const PANEL_CALLBACK = '__parleyPanel';

let panelFile: Promise<string> | null = null;
function loadPanelFile(): Promise<string> {
  panelFile ??= fetch('/widget/panel-file', { credentials: 'omit' })
    .then((res) => (res.ok ? (res.json() as Promise<{ file?: unknown }>) : { file: undefined }))
    .then((body) => {
      if (typeof body.file !== 'string') throw new Error('no panel');
      return body.file;
    })
    .catch((error: unknown) => {
      panelFile = null;
      throw error;
    });
  return panelFile;
}

const FRAME_CSS = `
.frame{position:absolute;bottom:12px;right:12px;width:min(370px,calc(100% - 24px));height:calc(100% - 24px);background:#fff;
border-radius:16px;box-shadow:0 12px 40px rgba(15,23,42,.22);overflow:hidden;display:flex;flex-direction:column}
.frame.left{right:auto;left:12px}`;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;background:#eef0f5}
body{background-image:linear-gradient(#e2e5ee 1px,transparent 1px);background-size:100% 28px}</style></head>
<body><div id="host" style="position:absolute;inset:0"></div></body></html>`;

export type PreviewSettings = Pick<ChatEndpointSettings, (typeof VISITOR_SETTING_KEYS)[number]>;
/** The language the preview speaks: its built-in texts, as the widget's config gives them to the panel. */
export type PreviewLanguage = { locale: string; dir: 'ltr' | 'rtl'; texts: UiTexts };

/**
 * `poweredBy`: the "Chat by Parley" link visitors see under the chat on plans without white label (null on plans
 * with it).
 */
export function WidgetPreview({
  settings,
  widgetId,
  poweredBy,
  language,
}: {
  settings: PreviewSettings;
  widgetId: string;
  poweredBy: string | null;
  /** Null while the language's texts load: the preview waits for them. */
  language: PreviewLanguage | null;
}) {
  const iframe = useRef<HTMLIFrameElement>(null);
  const current = useRef(settings);
  current.current = settings;
  const handle = useRef<PanelHandle | null>(null);
  const frameEl = useRef<HTMLElement | null>(null);
  const [online, setOnline] = useState(true);
  const [failed, setFailed] = useState(false);
  const languageRef = useRef(language);
  languageRef.current = language;
  const locale = language?.locale;

  // (Re)mounts the panel: on first render and when switching between the online and offline screens.
  useEffect(() => {
    const el = iframe.current;
    if (!el || !locale) return undefined;
    let live = true;
    handle.current = null;
    const mount = async () => {
      const file = await loadPanelFile();
      const win = el.contentWindow as (Window & Record<string, unknown>) | null;
      const doc = el.contentDocument;
      const host = doc?.getElementById('host');
      if (!live || !win || !doc || !host) return;
      // The panel tells a phone from a computer by the width of the window it runs in. In the live widget that is
      // the visitor's page; here it would be this narrow frame, and the preview would show the phone's texts (the
      // composer's placeholder without "and press Enter") on a computer. It asks the console's window instead.
      win.matchMedia = (query: string) => window.matchMedia(query);
      const root = host.attachShadow({ mode: 'open' });
      const style = doc.createElement('style');
      style.textContent = FRAME_CSS;
      const frame = doc.createElement('div');
      frame.className = `frame${current.current.widgetAlignment === 'bottomLeft' ? ' left' : ''}`;
      frameEl.current = frame;
      root.append(style, frame);
      win[PANEL_CALLBACK] = (factory: PanelFactory) => {
        const noop = () => undefined;
        const panel = factory({
          root,
          mount: frame,
          base: window.location.origin,
          widgetId: `preview-${widgetId}`,
          style: 'standard',
          // A URL no WebSocket accepts (an empty one would resolve against the page and reach Parley).
          config: {
            widgetId,
            allowed: true,
            online,
            hideWhenOffline: false,
            poweredBy,
            wsUrl: 'about:blank',
            ...languageRef.current,
            settings: current.current,
          },
          settings: () => current.current,
          identity: noop,
          trigger: noop,
          emit: noop,
          collapse: noop,
          setUnread: noop,
          setOnline: noop,
        });
        handle.current = panel;
        // Opening focuses the panel's first field: keep the owner's focus where it was.
        const active = document.activeElement;
        panel.expand();
        if (active instanceof HTMLElement && document.activeElement !== active) active.focus({ preventScroll: true });
      };
      const script = doc.createElement('script');
      script.src = file;
      script.onerror = () => setFailed(true);
      doc.head.append(script);
    };
    const onLoad = () => void mount().catch(() => live && setFailed(true));
    el.addEventListener('load', onLoad);
    el.srcdoc = PAGE;
    return () => {
      live = false;
      el.removeEventListener('load', onLoad);
    };
  }, [online, widgetId, poweredBy, locale]);

  const shown = useRef('');
  useEffect(() => {
    const json = JSON.stringify(settings);
    if (json === shown.current) return;
    shown.current = json;
    if (frameEl.current) frameEl.current.className = `frame${settings.widgetAlignment === 'bottomLeft' ? ' left' : ''}`;
    // The panel focuses its first field when its screen changes: the owner keeps typing where they were.
    const active = document.activeElement;
    handle.current?.refresh();
    if (active instanceof HTMLElement && document.activeElement !== active) active.focus({ preventScroll: true });
  }, [settings]);

  return (
    <aside className="widget-preview" aria-label="Live preview of the widget">
      <div className="widget-preview__bar">
        <strong>Live preview</strong>
        <fieldset className="segmented" aria-label="Preview as">
          <button
            type="button"
            className={`segmented__item${online ? ' segmented__item--active' : ''}`}
            aria-pressed={online}
            onClick={() => setOnline(true)}
          >
            Online
          </button>
          <button
            type="button"
            className={`segmented__item${!online ? ' segmented__item--active' : ''}`}
            aria-pressed={!online}
            onClick={() => setOnline(false)}
          >
            Offline
          </button>
        </fieldset>
      </div>
      {failed ? (
        <p className="muted widget-preview__failed">The preview could not be loaded. Your changes still save.</p>
      ) : (
        <iframe ref={iframe} className="widget-preview__frame" title="Widget preview" />
      )}
      <p className="fine-print">Unsaved changes show here first; visitors see them once saved.</p>
    </aside>
  );
}
