// For a page that embeds Attention Lab in an iframe: sizes each such iframe to the lab's
// height, as the lab reports it (web/embed-page.js posts { type: 'attention-lab:resize', height }).
// A classic script, so that it works wherever a page may add one:
//
//   <iframe src="https://…/embed.html?sentence=…" title="Attention Lab" width="100%" height="1200"></iframe>
//   <script src="https://…/embed.js" async></script>
//
// Only messages from this script's own origin are read, only the iframe that sent one is
// resized, and a height must be a number from 0 to 100,000 px. It sets the iframe's height
// through the CSSOM, which a page's style-src policy allows. Nothing else is read or changed.
(() => {
  const LAB = new URL(document.currentScript?.src ?? location.href).origin;
  const MAX_HEIGHT = 100_000;
  addEventListener('message', (event) => {
    const data = event.data;
    if (event.origin !== LAB || data === null || typeof data !== 'object' || data.type !== 'attention-lab:resize') return;
    const height = data.height;
    if (typeof height !== 'number' || !(height >= 0 && height <= MAX_HEIGHT)) return;
    for (const frame of document.querySelectorAll('iframe')) {
      if (frame.contentWindow === event.source) frame.style.height = `${Math.ceil(height)}px`;
    }
  });
})();
