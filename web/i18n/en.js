// English: every word the page, the lab, the lesson and the command line show. Read through
// web/i18n/i18n.js (which says how a message is written); web/i18n/nb.js has the same keys.
// Formulas and the names of the maths (q, k, d_k, softmax, Q·Kᵀ) are the same in every language.
export default Object.freeze({
  // ---- numbers and labels (web/views/format.js) ----
  'format.quoted': '“{text}”',
  'format.characters': { one: '({count} character)', other: '({count} characters)' },

  // ---- <attention-lab> ----
  'lab.tokens': 'Tokens',
  'lab.tokensHint':
    'Type a sentence: it is split into lower-case words and punctuation, one chip each. Choose a chip to see where it looks; double-click (or press Enter on) a chip to edit it.',
  'lab.englishWords': 'The word vectors are English (GloVe): type an English sentence, for example “{example}”.',
  'lab.truncated': 'Only the first {count} tokens are used.',
  'lab.long': 'Tokens longer than {count} characters are shown cut, ending in “…”: their tooltips show more, and the heatmap’s table reads them in full.',
  'lab.settings': 'Settings',
  'lab.weights': 'Attention weights',
  'lab.weightsHint': 'Each row is a query, each column a key; a row’s weights add up to 1. Hover or focus a cell for its numbers.',
  'lab.barsTitle': 'Where the selected token looks',
  'lab.barsTitleWord': 'Where “{word}” looks',
  'lab.barsHint': 'Select a row in the heatmap or a chip.',
  'lab.barsHintRow': 'Query {index} of {count}: its weight on each key. Select another row in the heatmap or a chip.',
  'lab.probe': 'Cross-attention probe',
  'lab.probeHint': 'One extra query word (n = 1) attends over the sentence’s tokens (m keys).',
  'lab.probeWord': 'Probe word',
  'lab.probeNeedsWords': 'The probe needs word vectors: choose Identity or Random.',
  'lab.probeEmpty': 'Type a probe word.',
  'lab.probeUnknown': '{word} is not in vocabulary: it gets a fixed random vector made from its spelling.',
  'lab.unknown': 'Not in vocabulary: {list}. Each gets a fixed random vector made from its spelling.',
  'lab.unknownMore': { one: '{count} more', other: '{count} more' },
  'lab.pastedInUse': 'Using the pasted vectors: these tokens are not used until you choose Identity or Random.',
  'lab.noTokens': 'Type at least one token.',
  'lab.causalShape': {
    one: 'The causal mask needs as many queries as keys (Q has {count} row, K has {m}): turn the mask off, or paste as many queries as keys.',
    other: 'The causal mask needs as many queries as keys (Q has {count} rows, K has {m}): turn the mask off, or paste as many queries as keys.',
  },
  'lab.loading': 'Loading word vectors…',
  'lab.notAvailable': 'Not available.',
  'lab.previous': '{message} Showing the previous result.',
  'lab.loadFailed': 'Could not load the attention core or the word vectors: {message}',
  'lab.core': 'Core: WebAssembly {build} · {words}',
  'lab.coreSimd': 'SIMD',
  'lab.coreScalar': '(scalar)',
  'lab.wordsLoading': 'loading the GloVe vocabulary…',
  'lab.words': '{count} GloVe words, {dim}-d',
  // the summary a screen reader hears when a result changes (polite, once the input settles)
  'lab.summary': '{change}: “{word}” now puts {weight} on “{key}”, entropy {entropy} nats.',
  'lab.summaryMasked': '{change}: every key of “{word}” is masked.',
  'lab.changeProjection': 'Projection {value}',
  'lab.changeTokens': { one: '{count} token', other: '{count} tokens' },
  'lab.changeDk': 'd_k = {value}',
  'lab.changeScaledOn': 'Scale by √d_k on',
  'lab.changeScaledOff': 'Scale by √d_k off',
  'lab.changeTemperature': 'temperature {value}',
  'lab.changeCausalOn': 'causal mask on',
  'lab.changeCausalOff': 'causal mask off',
  'lab.changePositionalOn': 'positional encoding on',
  'lab.changePositionalOff': 'positional encoding off',
  'lab.changeSeed': 'seed {value}',
  'lab.changeQuery': 'query “{word}”',
  'lab.changeProbe': 'probe word “{word}”',

  // ---- <attention-controls> ----
  'controls.projection': 'Projection',
  'controls.identity': 'Identity',
  'controls.random': 'Random',
  'controls.pasted': 'Pasted',
  'controls.identityHtml': 'q = k = x: attention by word similarity; d<sub>k</sub> = 100.',
  'controls.randomHtml': 'q = x·W<sub>Q</sub>, k = x·W<sub>K</sub>: seeded random 100 × d<sub>k</sub> matrices.',
  'controls.pastedHtml': 'Q and K as pasted under “Bring your own vectors”.',
  'controls.pastedNeedsPaste': 'Pasted is available once you use vectors under “Bring your own vectors”, below.',
  'controls.dkName': 'd_k',
  'controls.scaleName': 'Scale by √d_k',
  'controls.dkWidth': '(width of q and k)',
  'controls.dkFixed': 'Fixed at {d} with {projection}: choose Random to change d_k.',
  'controls.scaleHtml': 'Scale by √d<sub>k</sub>',
  'controls.scaleOn': 'scores = q·k × {factor} (= 1/√{d})',
  'controls.scaleOff': 'scores = q·k, unscaled',
  'controls.temperature': 'Temperature',
  'controls.temperatureHint': 'softmax(scores / T): low T sharpens, high T flattens.',
  'controls.causal': 'Causal mask',
  'controls.causalHint': 'Each token sees only itself and earlier tokens.',
  'controls.positional': 'Positional encoding',
  'controls.positionalHint': 'Adds sin/cos of the position to each word vector.',
  'controls.positionalPasted': 'Pasted vectors have no words to add positions to: choose Identity or Random.',
  'controls.seed': 'Seed',
  'controls.seedHtml': 'Picks the random W<sub>Q</sub> and W<sub>K</sub>.',
  'controls.seedFixed': 'Used by Random only: choose Random to change it.',
  'controls.seedInvalid': 'The seed must be a whole number from 0 to {max}.',

  // ---- <attention-heatmap> and the heatmap view ----
  'heatmap.role': 'heatmap',
  'heatmap.label': 'Attention weights heatmap',
  'heatmap.help':
    'Rows are queries, columns are keys. Arrow keys move between cells; moving up or down selects that query’s row. The same numbers are in the table that follows.',
  'heatmap.caption': 'Attention weights: rows are queries, columns are keys',
  'heatmap.corner': 'query \\ key',
  'heatmap.query': '{word} (query {index})',
  'heatmap.key': '{word} (key {index})',
  'heatmap.masked': 'masked',
  'heatmap.maskedTip': 'masked: a query sees only earlier keys',
  'heatmap.legendMasked': 'masked (not a score)',
  'heatmap.weight': 'weight',
  'heatmap.score': 'score',
  'heatmap.cell': '{query} (query {i}) to {key} (key {j}): {value}',
  'heatmap.cellWeight': 'weight {value}',
  'heatmap.pair': '{query} → {key}: {value}',
  'heatmap.svgLabel': 'Attention weights of {n} queries (rows) over {m} keys (columns)',

  // ---- <probability-bars> and the bars view ----
  'bars.key': '{word} (key {index})',
  'bars.masked': 'masked',
  'bars.maskedCausal': 'masked (causal)',
  'bars.sum': 'Σ weights',
  'bars.entropy': 'entropy',
  'bars.max': 'max weight',
  'bars.nats': '{value} nats',
  'bars.svgLabel': 'Attention weights over {m} keys',

  // ---- <token-chips> ----
  'chips.label': 'Token chips',
  'chips.keys': 'Arrow keys move between tokens; Enter or F2 edits a token; Delete removes it. Selecting a token shows where it looks.',
  'chips.add': 'Add a token',
  'chips.addPlaceholder': '+ add token',
  'chips.notInVocabulary': 'not in vocabulary',
  'chips.remove': 'Remove “{word}”',
  'chips.edit': 'Edit token {index}',
  'chips.empty': 'A token cannot be empty.',
  'chips.space': '“{token}” holds a space: one token is one word or mark.',
  'chips.tooLong': 'A token can be at most {count} characters long.',

  // ---- <vector-paste> and pasted vectors (web/lab/paste.js) ----
  'paste.title': 'Bring your own vectors',
  'paste.helpHtml':
    'One row per token: numbers separated by commas or spaces, optionally after a label (<code>cat, 1, 0, 0.5</code>), or JSON such as <code>[[1, 0], [0, 1]]</code>. Q and K need the same width d<sub>k</sub>; V, if given, one row per key.',
  'paste.qHtml': 'queries (n × d<sub>k</sub>)',
  'paste.kHtml': 'keys (m × d<sub>k</sub>)',
  'paste.vHtml': 'values (m × d<sub>v</sub>), optional',
  'paste.use': 'Use these vectors',
  'paste.example': 'Example',
  'paste.using': 'Using {queries} × {keys}, d_k = {d}{dv}.',
  'paste.queries': { one: '{count} query', other: '{count} queries' },
  'paste.keys': { one: '{count} key', other: '{count} keys' },
  'paste.dv': ', d_v = {dv}',
  'paste.stillInUse': '{message} The previous vectors are still in use.',
  'paste.first': 'Paste Q and K first (under “Bring your own vectors”).',
  'paste.notText': '{name}: expected text, got {type}',
  'paste.empty': '{name} is empty: paste at least one row of numbers.',
  'paste.tooManyRows': '{name} has {rows} rows; at most {max} are allowed.',
  'paste.noNumbers': '{name} row 1 has no numbers.',
  'paste.tooManyColumns': '{name} has {cols} columns; at most {max} are allowed.',
  'paste.width': {
    one: '{name} {where} has {count} number, but row 1 has {cols}: every row needs the same width.',
    other: '{name} {where} has {count} numbers, but row 1 has {cols}: every row needs the same width.',
  },
  'paste.notNumber': '{name} {where}, column {column}: {value} is not a number.',
  'paste.tooLarge': '{name} {where}, column {column}: {value} is too large (beyond the float32 range).',
  'paste.widths': 'Q rows have {q} numbers but K rows have {k}: q·k needs queries and keys of the same width d_k.',
  'paste.valueRows': 'V has {v} rows but K has {k}: every key needs one value row.',
  'paste.json': '{name} is not valid JSON ({detail}).',
  'paste.jsonArray': '{name}: expected a JSON array of rows like [[0.1, 0.2], [0.3, 0.4]].',
  'paste.rowNotArray': '{name} row {row} is not an array of numbers.',
  'paste.labelMissing': '{name} {where} starts with a number, but row 1 starts with a label: give every row a label, or none.',
  'paste.row': 'row {row}',
  'paste.rowLine': 'row {row} (line {line})',

  // ---- <attention-lesson> and its instruments ----
  'lesson.claim1': '1 · The variance of q·k grows with d_k',
  'lesson.claim2': '2 · Unscaled scores make softmax extremely peaked',
  'lesson.claim3': '3 · A saturated softmax passes back almost no gradient',
  'lesson.claim4': '4 · Step by step: each row becomes a probability distribution',
  'lesson.overflow': 'Temperature, and why softmax subtracts the max',
  'lesson.heads': 'Several heads',
  'lesson.waiting': 'Waiting for the lab…',
  'lesson.loading': 'Loading the core…',
  'lesson.loadFailed': 'Could not load this part: {message}',
  'lesson.cannotCompute': 'Cannot compute this part: {message}',
  'lesson.cannotDraw': 'Cannot draw: {message}',
  'lesson.needsWords': 'This part needs word vectors: choose Identity or Random in the lab.',
  'lesson.twoWords': 'Enter a sentence of at least 2 words.',
  'lesson.allMasked': 'Every key of this row is masked: there is no distribution to follow.',
  'lesson.causalOnly': 'This row hides keys between visible ones: step by step follows a causal mask only.',
  'lesson.scaled': 'scaled',
  'lesson.unscaled': 'unscaled',
  'lesson.status': {
    one: 'Following the lab: {count} token{cut}, {query}, {setting}; {where}.',
    other: 'Following the lab: {count} tokens{cut}, {query}, {setting}; {where}.',
  },
  'lesson.statusCut': '(the sweeps take the first {count} of {n})',
  'lesson.statusQuery': 'query “{word}”',
  'lesson.statusScaled': 'scaled by 1/√d_k',
  'lesson.statusUnscaled': 'unscaled',
  'lesson.statusSeed': ', seed {seed}, T = {t}',
  'lesson.statusCausal': ', causal',
  'lesson.rowViews': 'the gradient, step-by-step and overflow views use the lab’s own Q and K',
  'lesson.statusPasted':
    'Following the lab: your pasted Q ({n} × {d}) and K ({m} × {d}), {query}, {setting}; {rowViews}. The sweeps over d_k and the heads need word vectors: choose Identity or Random.',
  'lesson.whereRandom': 'd_k = {d}, as in the lab; {rowViews}, and the sweeps over d_k use the lab’s Random projection at every width',
  'lesson.whereIdentity':
    'the lab is on Identity (q = k = the 100-d word vectors, d = {d}): {rowViews}; the sweeps over d_k show seeded random projections of the same words (the lab’s Random mode), ◆ marking the lab’s own row',

  // the plots' shared parts (web/views/chart.js)
  'chart.dkLog': 'd_k (log scale)',
  'chart.identity':
    'The lab is on Identity (q = k = the 100-d word vectors), which has no d_k to vary: these sweeps show seeded random projections of the same words to each d_k — what the lab shows on Random.',
  'chart.identityMarked':
    'The lab is on Identity (q = k = the 100-d word vectors), which has no d_k to vary: these sweeps show seeded random projections of the same words to each d_k — what the lab shows on Random. ◆ marks the lab’s own row, at d = 100.',

  // claim 1 (web/views/variance.js)
  'variance.explain':
    'Draw q and k with {dk} independent components, each with mean 0 and variance 1. q·k adds up {dk} products that each have variance 1, so its variance is about d_k = {dk}; dividing by √d_k = {sqrtD} brings it back to about 1, whatever d_k is.',
  'variance.unscaled': 'q·k: variance {value}',
  'variance.scaled': 'q·k/√d_k: variance {value}',
  'variance.pairs': '{count} random pairs at d_k = {dk}',
  'variance.histogramsLabel': 'Histograms of q·k (variance {unscaled}) and of q·k/√d_k (variance {scaled})',
  'variance.outside': '{count} outside the axis',
  'variance.axis': 'value (same axis for both)',
  'variance.axisNote':
    'Both histograms share one axis, ±4√d_k. The scaled values stay within about ±4 whatever d_k is, so as d_k grows they become a narrow spike.',
  'variance.curves': 'Measured variance against d_k',
  'variance.curvesLabel': 'Measured variance of q·k against d_k, on a log scale; at d_k = {dk}: {random}',
  'variance.axisVariance': 'variance',
  'variance.theory': 'theory: d_k and 1',
  'variance.random': 'random {unscaled} → {scaled}',
  'variance.sentence': 'your sentence {unscaled} → {scaled}',
  'variance.note':
    'Filled dots: {samples} random pairs per d_k. Hollow dots: your sentence\'s words (layer-normalised, then {draws} random projections to each d_k — the first is the lab’s Random projection), all their pairwise dot products — noisier, the same trend. At d_k = {dk}: {random}.',
  'variance.noteSentence':
    'Filled dots: {samples} random pairs per d_k. Hollow dots: your sentence\'s words (layer-normalised, then {draws} random projections to each d_k — the first is the lab’s Random projection), all their pairwise dot products — noisier, the same trend. At d_k = {dk}: {random}; {mine}.',

  // claim 2 (web/views/saturation.js)
  'saturation.explain':
    'Softmax turns a row of scores into weights. If the scores are spread far apart, almost all the weight lands on one word ("extremely peaked"); if they are nearly equal, every word gets about the same weight ("nearly flat"). Without scaling, the spread of q·k grows like √d_k, so rows become peaked as d_k grows; with scaling they do not.',
  'saturation.maxTitle': 'Largest weight in each row',
  'saturation.entropyTitle': 'Entropy of each row (nats; uniform = ln {t} = {value})',
  'saturation.peakedBand': 'extremely peaked (max weight > {value})',
  'saturation.flatBand': 'nearly flat (entropy > {percent} of ln {t})',
  'saturation.shaded': 'shaded: {band}',
  'saturation.legendUnscaled': 'unscaled q·k (line: mean over rows, dots: each row)',
  'saturation.legendScaled': 'scaled q·k/√d_k',
  'saturation.legendLab': '◆ the lab’s own row',
  'saturation.summary':
    'At d_k = {dk}: unscaled, {unscaledPeaked} of {t} rows are extremely peaked and {unscaledFlat} nearly flat (mean max weight {unscaledMean}); scaled, {scaledPeaked} peaked and {scaledFlat} flat (mean max weight {scaledMean}).',
  'saturation.untrained':
    'The projections here are random, not trained, so scaled rows are fairly even; what scaling guarantees is that they do not collapse onto one word.',
  'saturation.row':
    'The row of "{word}" at d_k = {dk}: unscaled max weight {unscaledMax}, entropy {unscaledEntropy} nats; scaled max weight {scaledMax}, entropy {scaledEntropy} nats.',
  'saturation.lab': '◆ The lab’s own row ({setting}, d = {d}): max weight {max}, entropy {entropy} nats.',
  'saturation.labRandom':
    '◆ The lab’s own row ({setting}, d = {d}): max weight {max}, entropy {entropy} nats — on Random at T = 1 without the causal mask, the same numbers.',
  'saturation.labMarker': 'the lab\'s row "{word}": {value}',

  // claim 3 (web/views/gradient.js)
  'gradient.explain':
    'Learning adjusts the scores using the gradient that flows back through softmax. The Jacobian below says how much each weight (row) moves when each score (column) is nudged, for the row of "{word}". When one weight is almost 1 and the others almost 0, every entry is almost 0: whatever signal comes back, little gets through, and learning stalls.',
  'gradient.positive': 'positive',
  'gradient.negative': 'negative (colour scale ±{extent}, the largest possible)',
  'gradient.needsWords': 'The sweep over d_k needs word vectors: choose Identity or Random in the lab.',
  'gradient.yours': '(the lab’s setting)',
  'gradient.jacobianLabel': 'Softmax Jacobian, {setting}, d_k = {dk}: max weight {max}, entropy {entropy} nats, gradient size {norm}',
  'gradient.jacobianBox': 'Softmax Jacobian, {setting}',
  'gradient.stats': 'max weight {max}, entropy {entropy} nats; gradient size ‖∂L/∂z‖ = {norm}',
  'gradient.normTitle': 'Size of the gradient reaching the scores',
  'gradient.normLabel': 'Size of the gradient against d_k, on a log scale',
  'gradient.normLabelAt': 'Size of the gradient against d_k, on a log scale; at d_k = {dk} the mean over rows is {unscaled} unscaled and {scaled} scaled',
  'gradient.labMarker': 'the lab\'s row: {value}',
  'gradient.normNote':
    'Lines: mean over all rows; circles: the row of "{word}"; ◆: the lab’s own row at d = {d}. Loss L = ⟨g, p⟩ with a fixed random g for each row, so only the softmax changes between points. Log scale: each grid line is 10× smaller.',

  // claim 4 (web/views/step.js)
  'step.explain': 'Follow the query "{word}" through one row of attention — the row the lab shows as bars. Pick the key whose dot product to show:',
  'step.formulas': 'The formulas',
  'step.keys': 'key',
  'step.numbers': '({count} numbers)',
  'step.more': '… {count} more',
  'step.multiply': 'multiply component by component',
  'step.scale': '(scale {value})',
  'step.unscaled': '(unscaled: no division)',
  'step.row': 'The same for every key gives the row of scores z; softmax then turns it into weights:',
  'step.tableLabel': 'The row of "{word}", one step a line',
  'step.corner': 'step',
  'step.scores': 'the scores z',
  'step.shifted': 'each score minus the largest',
  'step.shiftedT': 'each score minus the largest, divided by T',
  'step.exps': 'e to the power of each',
  'step.weights': 'the weights p: each of those divided by their sum',
  'step.max': 'max = {value}',
  'step.maxMasked': 'max = {value}; −∞: masked (causal)',
  'step.allBelow': 'all ≤ 0',
  'step.allBelowT': 'all ≤ 0; T = {t}',
  'step.stats': 'Row "{word}": max weight {max}, entropy {entropy} nats — the lab’s bars show the same.',
  'step.notePositive':
    'Subtracting the max changes nothing in the result (it cancels between top and bottom) but keeps every exp at most 1, so nothing overflows. Every weight is positive and the weights add up to {sum}: the row is a probability distribution over the words.',
  'step.noteUnderflow':
    'Subtracting the max changes nothing in the result (it cancels between top and bottom) but keeps every exp at most 1, so nothing overflows. Every weight is at least 0 (some underflow to 0 in float32) and the weights add up to {sum}: the row is a probability distribution over the words.',

  // temperature and overflow (web/views/overflow.js)
  'overflow.explain':
    'The textbook formula e^z / Σ e^z is fine on paper, but a float32 number cannot exceed about 3.4·10³⁸, so e^z overflows to ∞ as soon as z > {threshold}. Then the sum is ∞ and ∞/∞ is NaN ("not a number"). Dividing the scores by a temperature T below 1 sharpens the weights and makes the scores larger; unscaled scores at a large d_k are large already.',
  'overflow.temperature': 'temperature T',
  'overflow.slider': 'temperature (log scale)',
  'overflow.breaks': 'largest z/T = {largest} > {threshold}: the naive version breaks',
  'overflow.agree': 'largest z/T = {largest} ≤ {threshold}: both versions agree',
  'overflow.tableLabel': 'The naive and the stable softmax of the row of "{word}"',
  'overflow.row': 'row "{word}" ({setting}, d_k = {d})',
  'overflow.naiveExps': 'naive (broken): e^(z/T)',
  'overflow.naiveWeights': 'naive (broken): weights',
  'overflow.stable': 'stable: softmax(z/T), max subtracted',
  'overflow.note':
    'The shaded rows are the broken naive version, shown only to see it fail. The stable version subtracts the largest score first, so the biggest exp is e⁰ = 1 and nothing overflows; the weights are the same whenever the naive version works. A high T makes the weights nearly flat, a low T makes them peaked.',

  // several heads (web/views/heads.js)
  'heads.explain':
    'Instead of one attention of width {dk}, multi-head attention runs {heads} smaller ones of width {dk} / {heads} = {d}, each with its own projections W_Q, W_K, W_V, so each head can attend to different words. Their outputs are placed side by side (concatenated) into one row per word, which a trained model then mixes with one more matrix, W_O.',
  'heads.heads': 'heads h',
  'heads.slider': 'number of heads',
  'heads.head': 'head {index}',
  'heads.headLabel': 'Attention weights of head {index}; the largest weight of each row: {rows}',
  'heads.cell': 'head {index}: "{query}" → "{key}" {value}',
  'heads.note': 'Each square: rows are queries, columns keys, in sentence order; darker = more weight. Hover a cell for its word pair and weight.',
  'heads.concat': 'Concatenated output: {t} × ({heads} · {d}) = {t} × {cols}',
  'heads.concatBox': 'Concatenated output',
  'heads.concatLabel': 'Concatenated output of {heads} heads, {t} rows × {cols} columns, values from −{extent} to {extent}',
  'heads.concatNote': 'Blue positive, red negative (scale ±{extent}). Each block is one head\'s output P·V for every word.',

  // ---- the demo page (index.html) ----
  'page.description': 'An interactive explainer of scaled dot-product attention on real word vectors.',
  'page.languages': 'Language',
  'page.introHtml':
    'A transformer decides which words to “look at” with <strong>attention</strong>: every token asks a question (its query <code>q</code>), every token offers an answer (its key <code>k</code>), and the dot product <code>q·k</code> says how well they match. A softmax turns each row of these scores into weights that add up to 1: <code>softmax(Q·Kᵀ / √d<sub>k</sub>)</code>.',
  'page.tryHtml':
    'Type a sentence below. The words become real GloVe word vectors; pick a token to see where it looks. Then widen <code>d<sub>k</sub></code> with a random projection and switch off the <code>√d<sub>k</sub></code> scaling: the dot products grow with the width, and the softmax snaps to a single word.',
  'page.whyHtml': 'Why divide by √d<sub>k</sub>?',
  'page.whyIntroHtml':
    'Four claims about the <code>√d<sub>k</sub></code>, each measured live by the same core, on random vectors and on your sentence. The instruments below follow the lab above — its sentence, selected token, d<sub>k</sub>, scaling, seed and temperature; there is one set of controls. They make their own seeded random projections W<sub>Q</sub> ≠ W<sub>K</sub> of the word vectors to d<sub>k</sub>: with the lab on <em>Identity</em> that is d<sub>k</sub> = 100, the width of the word vectors. (For lesson authors: the instruments alone are on <a href="./lesson.html">a page of their own</a>.)',
  'page.guide': 'See it in under a minute',
  'page.guide1Html':
    'Under <b>Settings</b> choose <b>Random</b> (Identity keeps d<sub>k</sub> at 100) and drag <b>d<sub>k</sub></b> to <b>1024</b>. <a href="#claim-1">Claim 1</a>: the variance of q·k is about 1024; divided by √d<sub>k</sub> it stays about 1.',
  'page.guide2Html':
    'Switch off <b>Scale by √d<sub>k</sub></b>. <a href="#claim-2">Claim 2</a>: the rows collapse onto one word — <b>max weight → 1.00, entropy → 0</b> for several of them (the dots of claim 2); the row of “cat” gets close (its bars above show the same numbers as the instruments below).',
  'page.guide3Html':
    '<a href="#claim-3">Claim 3</a>: a row that has collapsed passes back almost <b>no gradient (→ 0)</b>: its softmax Jacobian fades to blank, and in the chart its dot drops by orders of magnitude below the scaled one — learning stalls. (The instruments show the lab’s own row; the sweeps over d<sub>k</sub> use the lab’s Random projection at every width, so at the lab’s d<sub>k</sub> they show the same numbers.)',
  'page.guide4Html':
    'Switch scaling back on: the weights spread out again. <a href="#claim-4">Claim 4</a>: follow one row step by step — every weight is positive and the row adds up to 1.',
  'page.doIt': 'Do it',
  'page.doStep1': 'Do it: step 1, Random and d_k = 1024',
  'page.doStep2': 'Do it: step 2, scaling off',
  'page.doStep4': 'Do it: step 4, scaling on',
  'page.footer': 'Word vectors: GloVe (Pennington, Socher and Manning, 2014), 20,000 most frequent words. Everything runs in your browser.',

  // ---- the lesson alone (lesson.html) ----
  'lessonPage.title': 'Attention Lab — why scaled dot-product attention divides by √d_k',
  'lessonPage.headingHtml': 'Why attention divides by √d<sub>k</sub>',
  'lessonPage.lede':
    'Four claims about scaled dot-product attention, each computed live by the Attention Lab core (C++ compiled to WebAssembly) on random vectors and on the words of your sentence.',
  'lessonPage.controls': 'The lesson’s settings',
  'lessonPage.sentence': 'Sentence',
  'lessonPage.query': 'Query word',
  'lessonPage.scaledHtml': 'divide by √d<sub>k</sub>',
  'lessonPage.seed': 'Seed',
  'lessonPage.loading': 'Loading the core and the word vectors…',
  'lessonPage.typeSentence': 'Type a sentence.',
  'lessonPage.tokens': { one: '{count} token', other: '{count} tokens' },
  'lessonPage.unknown': 'not in the vocabulary (random vectors): {list}',
  'lessonPage.temperature': 'Temperature T = {t}, for every instrument (the slider of “Temperature”).',
  'lessonPage.coreSimd': 'Core: WebAssembly SIMD.',
  'lessonPage.coreScalar': 'Core: scalar WebAssembly.',
  'lessonPage.couldNotStart': 'Could not start: {message}',
  'lessonPage.fullLabHtml': 'The same instruments, driven by the full lab (heatmap, bars, probe): <a href="./#why">the Attention Lab page</a>.',
  'lessonPage.credits':
    'Word vectors: GloVe (Pennington, Socher & Manning, 2014), 100 dimensions. Words it does not know get a deterministic random vector. Q, K and V come from seeded random projections of the layer-normalised vectors — an untrained model, so the patterns show the arithmetic, not learned meaning.',
});
