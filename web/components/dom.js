// Small DOM helpers shared by the elements (presentation only).

/**
 * Writes text only when it changes: an unchanged view costs no style or layout work. An
 * element holding one Text node keeps it (its data is rewritten): no node is replaced, so
 * nothing is restyled or re-attached, only the text laid out again.
 */
export function setText(element, text) {
  const node = element.firstChild;
  if (node !== null && node === element.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.data !== text) node.data = text;
  } else if (element.textContent !== text) element.textContent = text;
}

/** Sets `hidden` only when it changes: writing the same value still restyles the element. */
export function setHidden(element, hidden) {
  if (element.hidden !== hidden) element.hidden = hidden;
}

/** Text made safe to put into HTML markup. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
