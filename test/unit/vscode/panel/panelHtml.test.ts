import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, createNonce, panelHtml } from '../../../../src/vscode/panel/panelHtml';

const spec = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'abc123',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUris: ['https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css'],
  title: 'PROF group',
};

describe('the panel page', () => {
  it('has the strict policy: nothing by default, scripts only with the nonce, styles and fonts from the extension', () => {
    expect(contentSecurityPolicy(spec.cspSource, 'n0')).toBe(
      `default-src 'none'; script-src 'nonce-n0'; style-src ${spec.cspSource}; font-src ${spec.cspSource}; img-src ${spec.cspSource} data:`,
    );
    const html = panelHtml(spec);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-abc123';`);
    expect(html).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('loads one module script, with the nonce, and no inline script or style', () => {
    const html = panelHtml(spec);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script type="module" nonce="abc123" src="${spec.scriptUri}"></script>`);
    expect(html).not.toMatch(/<style|style="/);
    expect(html).toContain(`<link rel="stylesheet" href="${spec.styleUris[0]}">`);
  });

  it('escapes what it puts in attributes and the title', () => {
    const html = panelHtml({ ...spec, title: '<b>"x"</b>', scriptUri: 'a"onload="b' });
    expect(html).toContain('<title>&lt;b&gt;&quot;x&quot;&lt;/b&gt;</title>');
    expect(html).toContain('src="a&quot;onload=&quot;b"');
  });

  it('a fresh nonce each time: long, random, safe in an attribute', () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});
