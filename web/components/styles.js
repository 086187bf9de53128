// Style sheets shared by the lab's elements (constructable sheets: no inline <style>, so
// they also work under a host page's CSP without 'unsafe-inline'). Colours are CSS custom
// properties set on <attention-lab> (light and dark); a host page may override any of them.

/** A constructable style sheet from CSS text. */
export function sheet(css) {
  const s = new CSSStyleSheet();
  s.replaceSync(css);
  return s;
}

/** Box model, form fonts, visible focus and a visually-hidden helper for every element. */
export const base = sheet(`
  :host { box-sizing: border-box; }
  *, *::before, *::after { box-sizing: inherit; }
  [hidden] { display: none !important; }
  button, input, select, textarea { font: inherit; color: inherit; }
  :focus-visible { outline: 2px solid var(--al-focus); outline-offset: 2px; }
  .visually-hidden {
    position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0;
    overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0;
  }
  .alert:empty { display: none; }
  .alert {
    margin: 8px 0 0; padding: 8px 10px; border-radius: 6px; border-left: 3px solid var(--al-danger);
    background: var(--al-danger-bg); color: var(--al-danger-text); font-size: 0.875rem;
  }
  .hint { color: var(--al-muted); font-size: 0.8125rem; line-height: 1.4; }
`);

/** The theme: set on <attention-lab>'s :host, inherited by every element inside. */
export const theme = sheet(`
  :host {
    color-scheme: light;
    --al-font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
    --al-mono: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace;
    --al-bg: #ffffff;
    --al-surface: #f6f7f9;
    --al-raised: #ffffff;
    --al-text: #1b1f24;
    --al-muted: #5a6370;
    --al-border: #d8dde4;
    --al-accent: #2354c4;
    --al-accent-text: #ffffff;
    --al-accent-soft: #e5ecfa;
    --al-focus: #2354c4;
    --al-warn: #8a4b00;
    --al-warn-bg: #fff4e0;
    --al-danger: #b3261e;
    --al-danger-bg: #fdecea;
    --al-danger-text: #7a1712;
    --al-track: #e6e9ee;
    --al-bar: #2f64d6;
    --al-bar-max: #12388f;
    --al-masked: #d5d9e0;
    --al-masked-line: #a9b0bb;
    /* weight 0 → 1; also the heatmap's colour scale */
    --al-heat-0: #f3f6fb;
    --al-heat-1: #c3d5f1;
    --al-heat-2: #79a2e0;
    --al-heat-3: #3263c0;
    --al-heat-4: #0c2c6e;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      color-scheme: dark;
      --al-bg: #12151a;
      --al-surface: #1a1e25;
      --al-raised: #222731;
      --al-text: #e7eaee;
      --al-muted: #a0a9b5;
      --al-border: #333a46;
      --al-accent: #7aa7ff;
      --al-accent-text: #0b1220;
      --al-accent-soft: #1f2c47;
      --al-focus: #8fb5ff;
      --al-warn: #f0b45a;
      --al-warn-bg: #33260f;
      --al-danger: #ff8a80;
      --al-danger-bg: #3a1a18;
      --al-danger-text: #ffc9c3;
      --al-track: #2a303b;
      --al-bar: #6d9cf5;
      --al-bar-max: #b5cfff;
      --al-masked: #2b313b;
      --al-masked-line: #4a5260;
      --al-heat-0: #1c222c;
      --al-heat-1: #1f3d6b;
      --al-heat-2: #2d68bd;
      --al-heat-3: #6aa3ef;
      --al-heat-4: #d6e7ff;
    }
  }
`);
