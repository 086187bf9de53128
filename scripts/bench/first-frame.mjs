// The page marks 'attention-lab:first-result' when the lab has drawn its first bars. This init
// script (context.addInitScript) adds 'bench:first-frame' in the next animation frame: the frame
// that paints them. Used by page.mjs and page-load-trace.mjs.
export function markFirstFrame() {
  const mark = performance.mark.bind(performance);
  performance.mark = (name, ...rest) => {
    if (name === 'attention-lab:first-result') requestAnimationFrame(() => mark('bench:first-frame'));
    return mark(name, ...rest);
  };
}
