// Small DOM helpers shared by the lab's elements (presentation only).

/** Attaches an open shadow root with the given constructable sheets and markup; returns it. */
export function attachShadow(host, sheets, html) {
  const root = host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = sheets;
  root.innerHTML = html;
  return root;
}

/** Writes text only when it changes: an unchanged view costs no style or layout work. */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** Text made safe to put into HTML markup. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
