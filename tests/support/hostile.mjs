// Hostile input (issue #15): markup and script, javascript: URLs, direction overrides and
// zero-width characters, emoji sequences, lone surrogates, NUL, words that look like our own
// message placeholders, a 100,000-character word and 10,000 tokens. One list for the page's
// tests (tests/browser/hostile.test.mjs) and the DOM-free ones of what reads them (tests/js/).

// What a hostile string must never achieve: set this flag.
export const PWN = 'window.__pwned=1';
export const LONG_WORD = 'w'.repeat(100_000);
export const MANY_TOKENS = Array.from({ length: 10_000 }, (_, i) => `t${i % 97}`).join(' ');

export const HOSTILE = [
  `<script>${PWN}</script>`,
  `<img src=x onerror="${PWN}">`,
  `"><svg onload=${PWN}>`,
  `<img/src/onerror=${PWN}>`, // markup with no space: one chip, one pasted label
  `<svg/onload=${PWN}>`,
  `'><iframe srcdoc="<script>${PWN}</script>">`,
  `<style>*{display:none}</style>`,
  `javascript:${PWN}`,
  `<a href="javascript:${PWN}">click</a>`,
  `data:text/html,<script>${PWN}</script>`,
  `{{constructor.constructor('${PWN}')()}}`,
  `\${${PWN}}`,
  '{word} {count} {list} {max} {scaledMax} {message}', // our own placeholders, as words
  'd_k W_Q x_1', // what the lesson writes with subscripts, as words
  '&lt;b&gt; &amp; &#60;script&#62;',
  '%3Cscript%3E %00 %E2%80%AE',
  '\u202Eevil\u202C and \u2067isolated\u2069', // direction override and isolate
  'zero\u200Bwidth\u200C join\u200D er\uFEFF', // zero-width characters
  '👩‍👩‍👧‍👦 🇳🇴 👍🏽 🏳️‍🌈', // emoji ZWJ sequences, flags, skin tones
  'lone \uD800 high and \uDC00 low and a\uD83D', // lone surrogates
  `${'x'.repeat(23)}😀 cut`, // a surrogate pair across the label's cut
  'nul\u0000byte',
  'z̷̢̛a̵̡l̸̨g̶͕o̴̧ combining',
  'مرحبا بالعالم שלום עולם', // right-to-left scripts
  '注意力机制 と 自己注意', // CJK
  'blåbærsyltetøy æøå ÆØÅ', // Norwegian letters
  '𝕒𝕥𝕥𝕖𝕟𝕥𝕚𝕠𝕟 𝟙𝟚𝟛', // mathematical alphanumerics (astral plane)
  '__proto__ constructor toString hasOwnProperty prototype', // object keys
  "' OR 1=1 -- ; DROP TABLE words",
  'NaN Infinity -Infinity 1e309 -0 0x10',
  'tab\tnew\nline\r\nreturn \u2028 \u2029 \u00A0nbsp',
  '\\u0041 \\x41 \\\\',
  '   ', // only spaces
  LONG_WORD,
  MANY_TOKENS,
];
