/**
 * The embed code of a widget: pick a widget style and a project type, copy the real snippet
 * (server/shared/embed.ts). Used by the last setup step and reusable by the settings' install tab.
 */
import { useEffect, useId, useRef, useState } from 'react';
import {
  embedSnippet,
  INLINE_SIZE_PX,
  PROJECT_TYPE_INFO,
  PROJECT_TYPES,
  type ProjectType,
  WIDGET_STYLE_INFO,
  WIDGET_STYLES,
  type WidgetStyle,
} from '../../../server/shared/embed';
import { CheckIcon } from './icons';
import { CopyIcon } from './moreIcons';
import { SegmentedTabs } from './SegmentedTabs';

/** How long the Copy button says Copied!. */
const COPIED_MS = 1500;

export function EmbedCode({ widgetUuid, origin = window.location.origin }: { widgetUuid: string; origin?: string }) {
  const [style, setStyle] = useState<WidgetStyle>('standard');
  const [projectType, setProjectType] = useState<ProjectType>('html');
  const styleName = useId();
  let snippet: string;
  try {
    snippet = embedSnippet({ projectType, style, widgetUuid, origin });
  } catch {
    snippet = '';
  }

  const mailto = `mailto:?subject=${encodeURIComponent('Please add the Parley chat to our site')}&body=${encodeURIComponent(
    `Hi,\n\nPlease add our Parley live chat to the site. ${PROJECT_TYPE_INFO[projectType].where}\n\n${snippet}\nThanks!`,
  )}`;

  return (
    <div className="embed">
      <fieldset className="embed__group">
        <legend className="embed__legend">Widget style</legend>
        <div className="style-picker">
          {WIDGET_STYLES.map((value) => (
            <label key={value} className={`style-option${style === value ? ' style-option--selected' : ''}`}>
              <input
                type="radio"
                name={styleName}
                value={value}
                checked={style === value}
                onChange={() => setStyle(value)}
                className="sr-only"
              />
              <StylePreview style={value} />
              <span className="style-option__label">{WIDGET_STYLE_INFO[value].label}</span>
              <span className="style-option__text">{WIDGET_STYLE_INFO[value].description}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {style === 'inline' && (
        <div className="inline-placeholder" role="img" aria-label={`Inline placeholder, ${INLINE_SIZE_PX} by ${INLINE_SIZE_PX} pixels`}>
          <span>
            Your chat appears in a {INLINE_SIZE_PX} × {INLINE_SIZE_PX} box
            <br />
            <code>&lt;div id="parley-inline"&gt;</code> wherever you place it
          </span>
        </div>
      )}

      <div className="embed__group">
        <div className="embed__legend" id={`${styleName}-project`}>
          Project type
        </div>
        <SegmentedTabs
          values={PROJECT_TYPES}
          value={projectType}
          onChange={setProjectType}
          labelOf={(value) => PROJECT_TYPE_INFO[value].label}
          label={{ by: `${styleName}-project` }}
        />
      </div>

      <div className="snippet" role="tabpanel" aria-label={`${PROJECT_TYPE_INFO[projectType].label} embed code`}>
        <div className="snippet__bar">
          <p className="snippet__where">{PROJECT_TYPE_INFO[projectType].where}</p>
          <div className="snippet__actions">
            <a className="snippet__mail" href={mailto}>
              Email to a developer
            </a>
            <CopyButton text={snippet} />
          </div>
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the code box scrolls sideways, and a keyboard must reach it to scroll it. */}
        <pre className="snippet__code" data-testid="embed-snippet" tabIndex={0}>
          <code>{snippet}</code>
        </pre>
      </div>
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    const ok = await copyText(text);
    if (!ok) return;
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <button type="button" className={`btn btn--dark copy-btn${copied ? ' copy-btn--done' : ''}`} onClick={copy} disabled={text === ''}>
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span aria-live="polite">{copied ? 'Copied!' : label}</span>
    </button>
  );
}

/** The async clipboard needs a secure context; plain http on a LAN host falls back to a hidden textarea. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused: try the fallback.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** A tiny drawing of a page with the widget where the style puts it. */
function StylePreview({ style }: { style: WidgetStyle }) {
  return (
    <svg className="style-option__preview" viewBox="0 0 120 72" aria-hidden="true" focusable="false">
      <rect x="0.5" y="0.5" width="119" height="71" rx="6" className="sp-page" />
      <rect x="0.5" y="0.5" width="119" height="10" rx="6" className="sp-bar" />
      <rect x="10" y="18" width="50" height="4" rx="2" className="sp-line" />
      <rect x="10" y="27" width="70" height="4" rx="2" className="sp-line" />
      <rect x="10" y="36" width="40" height="4" rx="2" className="sp-line" />
      {style === 'standard' && (
        <>
          <rect x="76" y="30" width="34" height="26" rx="4" className="sp-widget-soft" />
          <circle cx="104" cy="62" r="6" className="sp-widget" />
        </>
      )}
      {style === 'sidebar' && <rect x="92" y="11" width="27" height="60" className="sp-widget-soft sp-edge" />}
      {style === 'inline' && <rect x="10" y="45" width="36" height="22" rx="3" className="sp-widget-soft sp-dashed" />}
    </svg>
  );
}
