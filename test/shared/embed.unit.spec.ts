import vm from 'node:vm';
import { expect } from 'chai';
import {
  embedSnippet,
  INLINE_CONTAINER_ID,
  PROJECT_TYPES,
  type ProjectType,
  WIDGET_STYLES,
  type WidgetStyle,
} from '../../server/shared/embed';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const ORIGIN = 'https://chat.example.com';
const snippet = (projectType: ProjectType, style: WidgetStyle = 'standard', origin = ORIGIN) =>
  embedSnippet({ projectType, style, widgetUuid: UUID, origin });

/** The smallest DOM the ES5 injector needs: querySelector over appended scripts, createElement, body. */
function fakePage() {
  type FakeScript = { async: boolean; src: string; attributes: Record<string, string>; setAttribute(name: string, value: string): void };
  const appended: FakeScript[] = [];
  const document = {
    createElement(tag: string): FakeScript {
      expect(tag).to.equal('script');
      return {
        async: false,
        src: '',
        attributes: {},
        setAttribute(name, value) {
          this.attributes[name] = value;
        },
      };
    },
    querySelector(selector: string) {
      const match = /^script\[data-widget-id="([^"]+)"\]$/.exec(selector);
      if (!match) throw new Error(`unexpected selector ${selector}`);
      return appended.find((s) => s.attributes['data-widget-id'] === match[1]) ?? null;
    },
    body: { appendChild: (s: FakeScript) => appended.push(s) },
  };
  const window: Record<string, unknown> = {};
  const context = vm.createContext({ document, window });
  return { appended, window, run: (code: string) => vm.runInContext(code, context) };
}

function scriptBodies(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
}

describe('embed snippets', () => {
  for (const projectType of PROJECT_TYPES) {
    for (const style of WIDGET_STYLES) {
      it(`loads ${ORIGIN}/widget.js asynchronously with the widget id and the ${style} style for ${projectType}`, () => {
        const text = snippet(projectType, style);
        expect(text).to.contain(`${ORIGIN}/widget.js`);
        expect(text).to.match(/async|lazyOnload/);
        expect(text).to.match(new RegExp(`data-widget-id['"]?(=|, )['"]${UUID}['"]`));
        expect(text).to.match(new RegExp(`data-style['"]?(=|, )['"]${style}['"]`));
        expect(text.endsWith('\n')).to.equal(true);
      });
    }
  }

  it('adds a 400 by 400 placeholder for the inline style only', () => {
    for (const projectType of PROJECT_TYPES) {
      expect(snippet(projectType, 'inline'), projectType).to.contain(`id="${INLINE_CONTAINER_ID}"`);
      expect(snippet(projectType, 'inline'), projectType).to.match(/width:\s?400(px)?[,;]\s?height:\s?400/);
      for (const style of ['standard', 'sidebar'] as const) {
        expect(snippet(projectType, style), `${projectType} ${style}`).not.to.contain(INLINE_CONTAINER_ID);
      }
    }
  });

  it('renders the inline placeholder as markup in the HTML snippet, where a site owner can move it', () => {
    expect(snippet('html', 'inline')).to.contain('<div id="parley-inline" style="width:400px;height:400px"></div>');
  });

  it('uses the framework idiom of each project type', () => {
    expect(snippet('react')).to.contain("import { useEffect } from 'react';");
    expect(snippet('nextjs')).to.contain("import Script from 'next/script';");
    expect(snippet('svelte')).to.contain("import { onMount } from 'svelte';");
    expect(snippet('vue')).to.contain("import { onMounted } from 'vue';");
    expect(snippet('angular')).to.contain("import { AfterViewInit, Component } from '@angular/core';");
    expect(snippet('wordpress')).to.contain("add_action('wp_footer'");
    expect(snippet('tagManager')).to.contain('Google Tag Manager');
  });

  it('keeps only the origin of the URL it is given', () => {
    const text = snippet('html', 'standard', 'http://localhost:3000/app/#/setup/1');
    expect(text).to.contain('src="http://localhost:3000/widget.js"');
  });

  it('refuses a widget id or origin that would break out of the snippet', () => {
    expect(() => embedSnippet({ projectType: 'html', style: 'standard', widgetUuid: 'x"><script>', origin: ORIGIN })).to.throw(/widget id/);
    expect(() => embedSnippet({ projectType: 'html', style: 'standard', widgetUuid: UUID, origin: 'javascript:alert(1)' })).to.throw(
      /http/,
    );
    expect(() => embedSnippet({ projectType: 'html', style: 'standard', widgetUuid: UUID, origin: 'not a url' })).to.throw(/URL/);
    expect(() => embedSnippet({ projectType: 'cobol' as ProjectType, style: 'standard', widgetUuid: UUID, origin: ORIGIN })).to.throw(
      /project type/,
    );
  });

  it('queues calls made before the loader ran, in the HTML snippet', () => {
    const page = fakePage();
    for (const body of scriptBodies(snippet('html'))) page.run(body);
    page.run("window.parley.identify('u1', { plan: 'pro' }); window.parley.open();");
    const parley = page.window.parley as { _q: unknown[] };
    expect(JSON.parse(JSON.stringify(parley._q))).to.deep.equal([
      ['identify', ['u1', { plan: 'pro' }]],
      ['open', []],
    ]);
  });

  it('injects the loader exactly once, even when the Tag Manager snippet runs twice', () => {
    const page = fakePage();
    const [body] = scriptBodies(snippet('tagManager', 'sidebar'));
    page.run(body ?? '');
    page.run(body ?? '');
    expect(page.appended).to.have.length(1);
    expect(page.appended[0]).to.include({ async: true, src: `${ORIGIN}/widget.js` });
    expect(page.appended[0]?.attributes).to.deep.equal({ 'data-widget-id': UUID, 'data-style': 'sidebar' });
  });
});
