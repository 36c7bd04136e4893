/**
 * Embed snippets (PRODUCT.md section 4): the code a site owner pastes to put a widget on a site, one per project
 * type and widget style. Every snippet loads `${origin}/widget.js` asynchronously and never blocks the host page.
 *
 * What the snippets promise the widget loader (web/widget):
 * - the loader's <script> element carries `data-widget-id` (the widget's Uuid) and `data-style`
 *   (standard | sidebar | inline); it reads them from `document.currentScript`, or from the first
 *   `script[data-widget-id]` when it was injected in a way that leaves currentScript empty;
 * - with the inline style it renders into the element `#parley-inline` (400 × 400 by default);
 * - `window.parley` may already be a stub whose `_q` holds `[method, args]` pairs of calls made before the
 *   loader ran; the loader replays them in order and replaces the stub.
 * Pure text building: no DOM, no network, nothing but string work, so the server and the console share it.
 */

export const PROJECT_TYPES = ['html', 'react', 'nextjs', 'svelte', 'vue', 'angular', 'wordpress', 'tagManager'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

export const WIDGET_STYLES = ['standard', 'sidebar', 'inline'] as const;
export type WidgetStyle = (typeof WIDGET_STYLES)[number];

/** Id of the element the inline widget renders into. */
export const INLINE_CONTAINER_ID = 'parley-inline';
/** The inline placeholder's size in pixels (spec section 9). */
export const INLINE_SIZE_PX = 400;

/** The methods of `window.parley` that can be called before the loader ran (they return nothing). */
export const QUEUED_METHODS = ['identify', 'show', 'hide', 'open', 'send', 'configure', 'reset', 'on'] as const;

export type ProjectTypeInfo = {
  label: string;
  /** Language of the snippet, for display (syntax labels, file names). */
  language: 'html' | 'jsx' | 'svelte' | 'vue' | 'typescript' | 'php';
  /** Where the snippet goes, in one sentence. */
  where: string;
};

export const PROJECT_TYPE_INFO: Record<ProjectType, ProjectTypeInfo> = {
  html: { label: 'HTML', language: 'html', where: 'Paste it just before the closing </body> tag of every page that should show the chat.' },
  react: {
    label: 'React',
    language: 'jsx',
    where: 'Add the component to a file and render <ParleyChat /> once, near the root of your app.',
  },
  nextjs: { label: 'Next.js', language: 'jsx', where: 'Render the component in your root layout (app/layout.tsx) or in pages/_app.tsx.' },
  svelte: {
    label: 'Svelte',
    language: 'svelte',
    where: 'Save it as ParleyChat.svelte and include it once in your root layout (+layout.svelte).',
  },
  vue: { label: 'Vue', language: 'vue', where: 'Save it as ParleyChat.vue and include it once in App.vue.' },
  angular: {
    label: 'Angular',
    language: 'typescript',
    where: 'Add the standalone component and place <parley-chat></parley-chat> once in your root component.',
  },
  wordpress: {
    label: 'WordPress',
    language: 'php',
    where:
      "Add it to the end of your theme's functions.php, or paste the HTML between ?> and <?php into the footer box of a header-and-footer plugin.",
  },
  tagManager: {
    label: 'Google Tag Manager',
    language: 'html',
    where: 'Create a Custom HTML tag with this code, fire it on All Pages, then submit and publish the container.',
  },
};

export const WIDGET_STYLE_INFO: Record<WidgetStyle, { label: string; description: string }> = {
  standard: { label: 'Standard', description: 'A chat button in the corner of the page that opens the chat panel.' },
  sidebar: { label: 'Sidebar', description: 'A tab on the edge of the page that slides the chat in as a full-height sidebar.' },
  inline: { label: 'Inline', description: `The chat sits inside your page, in a ${INLINE_SIZE_PX} × ${INLINE_SIZE_PX} box you place.` },
};

export type EmbedOptions = {
  projectType: ProjectType;
  style: WidgetStyle;
  /** The widget's Uuid. */
  widgetUuid: string;
  /** Where Parley is served, e.g. https://app.parley.chat (a path or trailing slash is ignored). */
  origin: string;
};

const UUID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export function isProjectType(value: unknown): value is ProjectType {
  return typeof value === 'string' && (PROJECT_TYPES as readonly string[]).includes(value);
}

export function isWidgetStyle(value: unknown): value is WidgetStyle {
  return typeof value === 'string' && (WIDGET_STYLES as readonly string[]).includes(value);
}

/** The snippet text for one project type and style. Throws on an id or origin that cannot be embedded safely. */
export function embedSnippet(options: EmbedOptions): string {
  const { projectType, style } = options;
  if (!isProjectType(projectType)) throw new Error(`unknown project type: ${String(projectType)}`);
  if (!isWidgetStyle(style)) throw new Error(`unknown widget style: ${String(style)}`);
  // The id and origin end up inside HTML attributes and JS strings: only characters that need no escaping pass.
  if (!UUID_PATTERN.test(options.widgetUuid)) throw new Error('the widget id may hold only letters, digits and hyphens');
  const src = `${originOf(options.origin)}/widget.js`;
  const parts: SnippetParts = { src, uuid: options.widgetUuid, style };
  return BUILDERS[projectType](parts).trimEnd() + '\n';
}

/** Scheme, host and port of an http(s) URL, which is all a script URL needs. */
function originOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`not a URL: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`not an http(s) URL: ${value}`);
  return url.origin;
}

type SnippetParts = { src: string; uuid: string; style: WidgetStyle };

const placeholderHtml = `<div id="${INLINE_CONTAINER_ID}" style="width:${INLINE_SIZE_PX}px;height:${INLINE_SIZE_PX}px"></div>`;
const placeholderJsx = `<div id="${INLINE_CONTAINER_ID}" style={{ width: ${INLINE_SIZE_PX}, height: ${INLINE_SIZE_PX} }} />`;

const methodsJs = `[${QUEUED_METHODS.map((m) => `'${m}'`).join(', ')}]`;

/** Keeps calls to window.parley made before the loader ran; ES5, so it runs on any page. */
const queueStub = [
  'window.parley = window.parley || { _q: [] };',
  `${methodsJs}.forEach(function (m) {`,
  // Short lines: a code box that wraps a long one starts a line with `};`, which reads as broken code.
  '  window.parley[m] = window.parley[m] || function () {',
  '    window.parley._q.push([m, [].slice.call(arguments)]);',
  '  };',
  '});',
].join('\n');

/** ES5 that injects the loader once per page (a second run, e.g. a client-side navigation, does nothing). */
function injectorJs({ src, uuid, style }: SnippetParts): string {
  return [
    queueStub,
    `if (!document.querySelector('script[data-widget-id="${uuid}"]')) {`,
    `  var s = document.createElement('script');`,
    `  s.async = true;`,
    `  s.src = '${src}';`,
    `  s.setAttribute('data-widget-id', '${uuid}');`,
    `  s.setAttribute('data-style', '${style}');`,
    `  document.body.appendChild(s);`,
    `}`,
  ].join('\n');
}

const indent = (text: string, spaces: number): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : ' '.repeat(spaces) + line))
    .join('\n');

function htmlSnippet(parts: SnippetParts, withPlaceholder = parts.style === 'inline'): string {
  const lines = ['<!-- Parley live chat -->'];
  if (withPlaceholder) lines.push('<!-- The chat appears in this box: move it where it belongs on the page. -->', placeholderHtml);
  lines.push(
    '<script>',
    indent(queueStub, 2),
    '</script>',
    `<script async src="${parts.src}" data-widget-id="${parts.uuid}" data-style="${parts.style}"></script>`,
  );
  return lines.join('\n');
}

function reactSnippet(parts: SnippetParts): string {
  return `// ParleyChat.jsx: Parley live chat
import { useEffect } from 'react';

export default function ParleyChat() {
  useEffect(() => {
${indent(injectorJs(parts), 4)}
  }, []);

  return ${parts.style === 'inline' ? placeholderJsx : 'null'};
}
`;
}

function nextSnippet(parts: SnippetParts): string {
  const body =
    parts.style === 'inline'
      ? `  return (
    <>
      ${placeholderJsx}
${indent(nextScripts(parts), 6)}
    </>
  );`
      : `  return (
    <>
${indent(nextScripts(parts), 6)}
    </>
  );`;
  return `// components/ParleyChat.tsx: Parley live chat
import Script from 'next/script';

export default function ParleyChat() {
${body}
}
`;
}

function nextScripts({ src, uuid, style }: SnippetParts): string {
  return [
    `<Script id="parley-queue" strategy="afterInteractive">`,
    `  {\`${queueStub.replace(/\n\s*/g, ' ')}\`}`,
    `</Script>`,
    `<Script src="${src}" strategy="lazyOnload" data-widget-id="${uuid}" data-style="${style}" />`,
  ].join('\n');
}

function svelteSnippet(parts: SnippetParts): string {
  return `<!-- ParleyChat.svelte: Parley live chat -->
<script>
  import { onMount } from 'svelte';

  onMount(() => {
${indent(injectorJs(parts), 4)}
  });
</script>
${parts.style === 'inline' ? `\n${placeholderHtml}\n` : ''}`;
}

function vueSnippet(parts: SnippetParts): string {
  return `<!-- ParleyChat.vue: Parley live chat -->
<script setup>
import { onMounted } from 'vue';

onMounted(() => {
${indent(injectorJs(parts), 2)}
});
</script>

<template>
  ${parts.style === 'inline' ? placeholderHtml : '<!-- The chat draws itself on the page: nothing to render here. -->'}
</template>
`;
}

function angularSnippet({ src, uuid, style }: SnippetParts): string {
  const template = style === 'inline' ? placeholderHtml : '';
  return `// parley-chat.component.ts: Parley live chat
import { AfterViewInit, Component } from '@angular/core';

type ParleyStub = { _q: unknown[][] } & Record<string, unknown>;

@Component({
  selector: 'parley-chat',
  standalone: true,
  template: '${template}',
})
export class ParleyChatComponent implements AfterViewInit {
  ngAfterViewInit(): void {
    const w = window as unknown as { parley?: ParleyStub };
    const parley = (w.parley = w.parley || { _q: [] });
    for (const m of ${methodsJs}) {
      parley[m] = parley[m] || ((...args: unknown[]) => parley._q.push([m, args]));
    }
    if (document.querySelector('script[data-widget-id="${uuid}"]')) return;
    const s = document.createElement('script');
    s.async = true;
    s.src = '${src}';
    s.setAttribute('data-widget-id', '${uuid}');
    s.setAttribute('data-style', '${style}');
    document.body.appendChild(s);
  }
}
`;
}

function wordpressSnippet(parts: SnippetParts): string {
  const inlineNote =
    parts.style === 'inline'
      ? `// Inline style: also add a Custom HTML block holding
//   ${placeholderHtml}
// to the page or widget area where the chat belongs.
`
      : '';
  return `// Parley live chat: add to the end of your theme's functions.php (or a code snippets plugin).
// It prints the widget loader in the footer of every page.
${inlineNote}add_action('wp_footer', function () {
  ?>
${indent(htmlSnippet(parts, false), 2)}
  <?php
});
`;
}

function tagManagerSnippet(parts: SnippetParts): string {
  const inlineNote =
    parts.style === 'inline' ? `<!-- Inline style: your page must contain ${placeholderHtml} where the chat belongs. -->\n` : '';
  return `<!-- Parley live chat (Google Tag Manager: Custom HTML tag, trigger All Pages) -->
${inlineNote}<script>
${indent(injectorJs(parts), 2)}
</script>
`;
}

const BUILDERS: Record<ProjectType, (parts: SnippetParts) => string> = {
  html: htmlSnippet,
  react: reactSnippet,
  nextjs: nextSnippet,
  svelte: svelteSnippet,
  vue: vueSnippet,
  angular: angularSnippet,
  wordpress: wordpressSnippet,
  tagManager: tagManagerSnippet,
};
