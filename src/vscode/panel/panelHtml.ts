/**
 * The panels' HTML page: a strict Content Security Policy (scripts only with this load's nonce,
 * styles and fonts only from the extension), the stylesheets, and the module script. Pure: the
 * host passes in the webview's URIs as strings.
 */

/** What the page refers to. */
export interface PageSpec {
  /** The webview's `cspSource`. */
  cspSource: string;
  /** A fresh random value for this load. */
  nonce: string;
  scriptUri: string;
  styleUris: readonly string[];
  title: string;
}

/** A nonce: 32 characters from a cryptographic source. */
export function createNonce(): string {
  const bytes = new Uint8Array(24);
  globalThis.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (c) => ({ '+': '-', '/': '_', '=': '' })[c] ?? '');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The Content-Security-Policy of a panel page. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

/** The page. Nothing from a rollout file goes into it: the data arrives later as messages. */
export function panelHtml(spec: PageSpec): string {
  const styles = spec.styleUris.map((uri) => `<link rel="stylesheet" href="${attribute(uri)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${attribute(contentSecurityPolicy(spec.cspSource, spec.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${attribute(spec.title)}</title>
  </head>
  <body>
    <main id="app" aria-live="polite"><p class="notice">Loading…</p></main>
    <script type="module" nonce="${attribute(spec.nonce)}" src="${attribute(spec.scriptUri)}"></script>
  </body>
</html>
`;
}
