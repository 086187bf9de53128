// Norsk bokmål: the same keys as web/i18n/en.js (tests/js/i18n.test.mjs holds them equal),
// written for a learner, not word for word. The maths keeps its names: q, k, d_k, softmax.
// Terms: attention = oppmerksomhet, query = spørring, key = nøkkel, value = verdi, token = token
// (tokenet, tokenene), word vectors = ordvektorer, heatmap = varmekart, seed = frø,
// dot product = skalarprodukt, entropy = entropi (i nat), head = hode.
export default Object.freeze({
  // ---- tall og etiketter ----
  'format.quoted': '«{text}»',
  'format.characters': { one: '({count} tegn)', other: '({count} tegn)' },

  // ---- <attention-lab> ----
  'lab.tokens': 'Tokener',
  'lab.tokensHint':
    'Skriv en setning: den deles opp i ord med små bokstaver og skilletegn, én brikke hver. Velg en brikke for å se hva den retter oppmerksomheten mot; dobbeltklikk på en brikke (eller trykk Enter på den) for å endre den.',
  'lab.englishWords': 'Ordvektorene er engelske (GloVe): skriv en engelsk setning, for eksempel «{example}».',
  'lab.truncated': 'Bare de første {count} tokenene brukes.',
  'lab.long': 'Tokener lengre enn {count} tegn vises avkortet, med «…» til slutt: verktøytipsene viser mer, og tabellen til varmekartet leser dem i sin helhet.',
  'lab.settings': 'Innstillinger',
  'lab.weights': 'Oppmerksomhetsvekter',
  'lab.weightsHint': 'Hver rad er en spørring, hver kolonne en nøkkel; vektene i en rad summerer til 1. Hold pekeren over eller fokuser på en celle for å se tallene.',
  'lab.barsTitle': 'Hva det valgte tokenet retter oppmerksomheten mot',
  'lab.barsTitleWord': 'Hva «{word}» retter oppmerksomheten mot',
  'lab.barsHint': 'Velg en rad i varmekartet eller en brikke.',
  'lab.barsHintRow': 'Spørring {index} av {count}: vekten den gir hver nøkkel. Velg en annen rad i varmekartet eller en annen brikke.',
  'lab.probe': 'Kryssoppmerksomhet med et sondeord',
  'lab.probeHint': 'Ett ekstra spørreord (n = 1) fordeler oppmerksomheten over tokenene i setningen (m nøkler).',
  'lab.probeWord': 'Sondeord',
  'lab.probeNeedsWords': 'Sondeordet trenger ordvektorer: velg Identitet eller Tilfeldig.',
  'lab.probeEmpty': 'Skriv et sondeord.',
  'lab.probeUnknown': '{word} finnes ikke i vokabularet: ordet får en fast, tilfeldig vektor laget ut fra stavemåten.',
  'lab.unknown': 'Ikke i vokabularet: {list}. Hvert av dem får en fast, tilfeldig vektor laget ut fra stavemåten.',
  'lab.unknownMore': { one: '{count} til', other: '{count} til' },
  'lab.pastedInUse': 'De innlimte vektorene brukes: disse tokenene er ikke i bruk før du velger Identitet eller Tilfeldig.',
  'lab.noTokens': 'Skriv minst ett token.',
  'lab.causalShape': {
    one: 'Den kausale masken krever like mange spørringer som nøkler (Q har {count} rad, K har {m}): slå av masken, eller lim inn like mange spørringer som nøkler.',
    other: 'Den kausale masken krever like mange spørringer som nøkler (Q har {count} rader, K har {m}): slå av masken, eller lim inn like mange spørringer som nøkler.',
  },
  'lab.loading': 'Laster inn ordvektorer …',
  'lab.notAvailable': 'Ikke tilgjengelig.',
  'lab.previous': '{message} Viser forrige resultat.',
  'lab.loadFailed': 'Kunne ikke laste inn oppmerksomhetskjernen eller ordvektorene: {message}',
  'lab.core': 'Kjerne: WebAssembly {build} · {words}',
  'lab.coreSimd': 'SIMD',
  'lab.coreScalar': '(skalar)',
  'lab.wordsLoading': 'laster inn GloVe-vokabularet …',
  'lab.words': '{count} GloVe-ord, {dim} dimensjoner',
  'lab.summary': '{change}: «{word}» gir nå {weight} til «{key}», entropi {entropy} nat.',
  'lab.summaryMasked': '{change}: alle nøklene til «{word}» er maskert.',
  'lab.changed': 'Resultatet er oppdatert',

  // ---- <attention-controls> ----
  'controls.projection': 'Projeksjon',
  'controls.identity': 'Identitet',
  'controls.random': 'Tilfeldig',
  'controls.pasted': 'Innlimt',
  'controls.identityHtml': 'q = k = x: oppmerksomhet etter hvor like ordene er; d<sub>k</sub> = 100.',
  'controls.randomHtml': 'q = x·W<sub>Q</sub>, k = x·W<sub>K</sub>: tilfeldige 100 × d<sub>k</sub>-matriser, bestemt av frøet.',
  'controls.pastedHtml': 'Q og K slik de er limt inn under «Bruk dine egne vektorer».',
  'controls.pastedNeedsPaste': 'Innlimt blir tilgjengelig når du tar i bruk vektorer under «Bruk dine egne vektorer», lenger ned.',
  'controls.dkName': 'd_k',
  'controls.scaleName': 'Skaler med √d_k',
  'controls.dkWidth': '(bredden på q og k)',
  'controls.dkFixed': 'Låst til {d} med {projection}: velg Tilfeldig for å endre d_k.',
  'controls.scaleHtml': 'Skaler med √d<sub>k</sub>',
  'controls.scaleOn': 'skårer = q·k × {factor} (= 1/√{d})',
  'controls.scaleOff': 'skårer = q·k, uskalert',
  'controls.temperature': 'Temperatur',
  'controls.temperatureHint': 'softmax(skårer / T): lav T gjør fordelingen skarpere, høy T gjør den flatere.',
  'controls.causal': 'Kausal maske',
  'controls.causalHint': 'Hvert token ser bare seg selv og tokenene før.',
  'controls.positional': 'Posisjonskoding',
  'controls.positionalHint': 'Legger sin/cos av posisjonen til hver ordvektor.',
  'controls.positionalPasted': 'Innlimte vektorer har ingen ord å legge posisjoner til: velg Identitet eller Tilfeldig.',
  'controls.seed': 'Frø',
  'controls.seedHtml': 'Bestemmer de tilfeldige W<sub>Q</sub> og W<sub>K</sub>.',
  'controls.seedFixed': 'Brukes bare av Tilfeldig: velg Tilfeldig for å endre det.',
  'controls.seedInvalid': 'Frøet må være et heltall fra 0 til {max}.',

  // ---- <attention-heatmap> og varmekartet ----
  'heatmap.role': 'varmekart',
  'heatmap.label': 'Varmekart over oppmerksomhetsvektene',
  'heatmap.help':
    'Radene er spørringer, kolonnene er nøkler. Piltastene flytter mellom cellene; opp eller ned velger raden til den spørringen. De samme tallene står i tabellen som følger.',
  'heatmap.caption': 'Oppmerksomhetsvekter: radene er spørringer, kolonnene er nøkler',
  'heatmap.corner': 'spørring \\ nøkkel',
  'heatmap.query': '{word} (spørring {index})',
  'heatmap.key': '{word} (nøkkel {index})',
  'heatmap.masked': 'maskert',
  'heatmap.maskedTip': 'maskert: en spørring ser bare tidligere nøkler',
  'heatmap.legendMasked': 'maskert (ingen skår)',
  'heatmap.weight': 'vekt',
  'heatmap.score': 'skår',
  'heatmap.cell': '{query} (spørring {i}) til {key} (nøkkel {j}): {value}',
  'heatmap.cellWeight': 'vekt {value}',
  'heatmap.pair': '{query} → {key}: {value}',
  'heatmap.svgLabel': 'Oppmerksomhetsvektene til {n} spørringer (rader) over {m} nøkler (kolonner)',

  // ---- <probability-bars> og stolpene ----
  'bars.key': '{word} (nøkkel {index})',
  'bars.masked': 'maskert',
  'bars.maskedCausal': 'maskert (kausal)',
  'bars.sum': 'Σ vekter',
  'bars.entropy': 'entropi',
  'bars.max': 'største vekt',
  'bars.nats': '{value} nat',
  'bars.svgLabel': 'Oppmerksomhetsvekter over {m} nøkler',

  // ---- <token-chips> ----
  'chips.label': 'Tokenbrikker',
  'chips.keys': 'Piltastene flytter mellom tokenene; Enter eller F2 endrer et token; Delete fjerner det. Når du velger et token, ser du hva det retter oppmerksomheten mot.',
  'chips.add': 'Legg til et token',
  'chips.addPlaceholder': '+ legg til token',
  'chips.notInVocabulary': 'ikke i vokabularet',
  'chips.remove': 'Fjern «{word}»',
  'chips.edit': 'Endre token {index}',
  'chips.empty': 'Et token kan ikke være tomt.',
  'chips.space': '«{token}» inneholder et mellomrom: ett token er ett ord eller tegn.',
  'chips.tooLong': 'Et token kan være høyst {count} tegn langt.',

  // ---- <vector-paste> og innlimte vektorer ----
  'paste.title': 'Bruk dine egne vektorer',
  'paste.helpHtml':
    'Én rad per token: tall skilt med komma eller mellomrom, eventuelt etter en etikett (<code>cat, 1, 0, 0.5</code>), eller JSON som <code>[[1, 0], [0, 1]]</code>. Skriv tallene med desimalpunktum. Q og K må ha samme bredde d<sub>k</sub>; V, om du gir den, én rad per nøkkel.',
  'paste.qHtml': 'spørringer (n × d<sub>k</sub>)',
  'paste.kHtml': 'nøkler (m × d<sub>k</sub>)',
  'paste.vHtml': 'verdier (m × d<sub>v</sub>), valgfritt',
  'paste.use': 'Bruk disse vektorene',
  'paste.example': 'Eksempel',
  'paste.using': 'Bruker {queries} × {keys}, d_k = {d}{dv}.',
  'paste.queries': { one: '{count} spørring', other: '{count} spørringer' },
  'paste.keys': { one: '{count} nøkkel', other: '{count} nøkler' },
  'paste.dv': ', d_v = {dv}',
  'paste.stillInUse': '{message} De forrige vektorene er fortsatt i bruk.',
  'paste.first': 'Lim inn Q og K først (under «Bruk dine egne vektorer»).',
  'paste.notText': '{name}: ventet tekst, fikk {type}',
  'paste.empty': '{name} er tom: lim inn minst én rad med tall.',
  'paste.tooManyRows': '{name} har {rows} rader; høyst {max} er tillatt.',
  'paste.noNumbers': '{name} rad 1 har ingen tall.',
  'paste.tooManyColumns': '{name} har {cols} kolonner; høyst {max} er tillatt.',
  'paste.width': {
    one: '{name} {where} har {count} tall, men rad 1 har {cols}: alle radene må være like brede.',
    other: '{name} {where} har {count} tall, men rad 1 har {cols}: alle radene må være like brede.',
  },
  'paste.notNumber': '{name} {where}, kolonne {column}: {value} er ikke et tall.',
  'paste.tooLarge': '{name} {where}, kolonne {column}: {value} er for stort (utenfor float32-området).',
  'paste.widths': 'Radene i Q har {q} tall, men radene i K har {k}: q·k krever spørringer og nøkler med samme bredde d_k.',
  'paste.valueRows': 'V har {v} rader, men K har {k}: hver nøkkel trenger én verdirad.',
  'paste.json': '{name} er ikke gyldig JSON ({detail}).',
  'paste.jsonArray': '{name}: ventet en JSON-liste med rader, som [[0.1, 0.2], [0.3, 0.4]].',
  'paste.rowNotArray': '{name} rad {row} er ikke en liste med tall.',
  'paste.labelMissing': '{name} {where} begynner med et tall, men rad 1 begynner med en etikett: gi alle radene en etikett, eller ingen.',
  'paste.row': 'rad {row}',
  'paste.rowLine': 'rad {row} (linje {line})',

  // ---- <attention-lesson> og instrumentene ----
  'lesson.claim1': '1 · Variansen til q·k vokser med d_k',
  'lesson.claim2': '2 · Uskalerte skårer gjør softmax ekstremt spiss',
  'lesson.claim3': '3 · En mettet softmax sender nesten ingen gradient tilbake',
  'lesson.claim4': '4 · Steg for steg: hver rad blir en sannsynlighetsfordeling',
  'lesson.overflow': 'Temperatur, og hvorfor softmax trekker fra maksimum',
  'lesson.heads': 'Flere hoder',
  'lesson.waiting': 'Venter på laben …',
  'lesson.loading': 'Laster inn kjernen …',
  'lesson.loadFailed': 'Kunne ikke laste inn denne delen: {message}',
  'lesson.cannotCompute': 'Kan ikke beregne denne delen: {message}',
  'lesson.cannotDraw': 'Kan ikke tegne: {message}',
  'lesson.needsWords': 'Denne delen trenger ordvektorer: velg Identitet eller Tilfeldig i laben.',
  'lesson.twoWords': 'Skriv en setning på minst 2 ord.',
  'lesson.allMasked': 'Alle nøklene i denne raden er maskert: det finnes ingen fordeling å følge.',
  'lesson.causalOnly': 'Denne raden skjuler nøkler mellom synlige nøkler: steg for steg følger bare en kausal maske.',
  'lesson.scaled': 'skalert',
  'lesson.unscaled': 'uskalert',
  'lesson.status': {
    one: 'Følger laben: {count} token{cut}, {query}, {setting}; {where}.',
    other: 'Følger laben: {count} tokener{cut}, {query}, {setting}; {where}.',
  },
  'lesson.statusCut': '(gjennomløpene tar de første {count} av {n})',
  'lesson.statusQuery': 'spørringen «{word}»',
  'lesson.statusScaled': 'skalert med 1/√d_k',
  'lesson.statusUnscaled': 'uskalert',
  'lesson.statusSeed': ', frø {seed}, T = {t}',
  'lesson.statusCausal': ', kausal',
  'lesson.rowViews': 'gradient-, steg-for-steg- og overløpsvisningen bruker labens egne Q og K',
  'lesson.statusPasted':
    'Følger laben: dine innlimte Q ({n} × {d}) og K ({m} × {d}), {query}, {setting}; {rowViews}. Gjennomløpene over d_k og hodene trenger ordvektorer: velg Identitet eller Tilfeldig.',
  'lesson.whereRandom': 'd_k = {d}, som i laben; {rowViews}, og gjennomløpene over d_k bruker labens tilfeldige projeksjon ved hver bredde',
  'lesson.whereIdentity':
    'laben står på Identitet (q = k = de 100-dimensjonale ordvektorene, d = {d}): {rowViews}; gjennomløpene over d_k viser tilfeldige projeksjoner, bestemt av frøet, av de samme ordene (labens Tilfeldig-modus), og ◆ markerer labens egen rad',

  // delene plottene deler
  'chart.dkLog': 'd_k (logaritmisk skala)',
  'chart.identity':
    'Laben står på Identitet (q = k = de 100-dimensjonale ordvektorene), som ikke har noen d_k å variere: disse gjennomløpene viser tilfeldige projeksjoner, bestemt av frøet, av de samme ordene til hver d_k — det laben viser med Tilfeldig.',
  'chart.identityMarked':
    'Laben står på Identitet (q = k = de 100-dimensjonale ordvektorene), som ikke har noen d_k å variere: disse gjennomløpene viser tilfeldige projeksjoner, bestemt av frøet, av de samme ordene til hver d_k — det laben viser med Tilfeldig. ◆ markerer labens egen rad, ved d = 100.',

  // påstand 1
  'variance.explain':
    'Trekk q og k med {dk} uavhengige komponenter, hver med forventning 0 og varians 1. q·k summerer {dk} produkter som hvert har varians 1, så variansen er omtrent d_k = {dk}; å dele på √d_k = {sqrtD} bringer den tilbake til omtrent 1, uansett hva d_k er.',
  'variance.unscaled': 'q·k: varians {value}',
  'variance.scaled': 'q·k/√d_k: varians {value}',
  'variance.pairs': '{count} tilfeldige par ved d_k = {dk}',
  'variance.histogramsLabel': 'Histogrammer over q·k (varians {unscaled}) og over q·k/√d_k (varians {scaled})',
  'variance.outside': '{count} utenfor aksen',
  'variance.axis': 'verdi (samme akse for begge)',
  'variance.axisNote':
    'Begge histogrammene deler én akse, ±4√d_k. De skalerte verdiene holder seg innenfor omtrent ±4 uansett d_k, så når d_k vokser, blir de en smal topp.',
  'variance.curves': 'Målt varians mot d_k',
  'variance.curvesLabel': 'Målt varians av q·k mot d_k, på logaritmisk skala; ved d_k = {dk}: {random}',
  'variance.axisVariance': 'varians',
  'variance.theory': 'teori: d_k og 1',
  'variance.random': 'tilfeldig {unscaled} → {scaled}',
  'variance.sentence': 'setningen din {unscaled} → {scaled}',
  'variance.note':
    'Fylte prikker: {samples} tilfeldige par per d_k. Hule prikker: ordene i setningen din (lagnormalisert, deretter {draws} tilfeldige projeksjoner til hver d_k — den første er labens tilfeldige projeksjon), alle skalarproduktene mellom dem parvis — mer støy, samme tendens. Ved d_k = {dk}: {random}.',
  'variance.noteSentence':
    'Fylte prikker: {samples} tilfeldige par per d_k. Hule prikker: ordene i setningen din (lagnormalisert, deretter {draws} tilfeldige projeksjoner til hver d_k — den første er labens tilfeldige projeksjon), alle skalarproduktene mellom dem parvis — mer støy, samme tendens. Ved d_k = {dk}: {random}; {mine}.',

  // påstand 2
  'saturation.explain':
    'Softmax gjør en rad med skårer om til vekter. Hvis skårene ligger langt fra hverandre, havner nesten all vekten på ett ord («ekstremt spiss»); hvis de er nesten like, får alle ordene omtrent samme vekt («nesten flat»). Uten skalering vokser spredningen til q·k som √d_k, så radene blir spisse når d_k vokser; med skalering blir de ikke det.',
  'saturation.maxTitle': 'Største vekt i hver rad',
  'saturation.entropyTitle': 'Entropien til hver rad (nat; jevn fordeling = ln {t} = {value})',
  'saturation.peakedBand': 'ekstremt spiss (største vekt > {value})',
  'saturation.flatBand': 'nesten flat (entropi > {percent} av ln {t})',
  'saturation.shaded': 'skyggelagt: {band}',
  'saturation.legendUnscaled': 'uskalert q·k (linje: gjennomsnitt over radene, prikker: hver rad)',
  'saturation.legendScaled': 'skalert q·k/√d_k',
  'saturation.legendLab': '◆ labens egen rad',
  'saturation.summary':
    'Ved d_k = {dk}: uskalert er {unscaledPeaked} av {t} rader ekstremt spisse og {unscaledFlat} nesten flate (gjennomsnittlig største vekt {unscaledMean}); skalert er {scaledPeaked} spisse og {scaledFlat} flate (gjennomsnittlig største vekt {scaledMean}).',
  'saturation.untrained':
    'Projeksjonene her er tilfeldige, ikke trente, så de skalerte radene er ganske jevne; det skaleringen garanterer, er at de ikke faller sammen på ett ord.',
  'saturation.row':
    'Raden til «{word}» ved d_k = {dk}: uskalert største vekt {unscaledMax}, entropi {unscaledEntropy} nat; skalert største vekt {scaledMax}, entropi {scaledEntropy} nat.',
  'saturation.lab': '◆ Labens egen rad ({setting}, d = {d}): største vekt {max}, entropi {entropy} nat.',
  'saturation.labRandom':
    '◆ Labens egen rad ({setting}, d = {d}): største vekt {max}, entropi {entropy} nat — med Tilfeldig ved T = 1 uten kausal maske er det de samme tallene.',
  'saturation.labMarker': 'labens rad «{word}»: {value}',

  // påstand 3
  'gradient.explain':
    'Læring justerer skårene ved hjelp av gradienten som flyter tilbake gjennom softmax. Jacobi-matrisen nedenfor viser hvor mye hver vekt (rad) flytter seg når hver skår (kolonne) endres litt, for raden til «{word}». Når én vekt er nesten 1 og de andre nesten 0, er hvert element nesten 0: uansett hvilket signal som kommer tilbake, slipper lite gjennom, og læringen stopper opp.',
  'gradient.positive': 'positiv',
  'gradient.negative': 'negativ (fargeskala ±{extent}, den størst mulige)',
  'gradient.needsWords': 'Gjennomløpet over d_k trenger ordvektorer: velg Identitet eller Tilfeldig i laben.',
  'gradient.yours': '(labens innstilling)',
  'gradient.jacobianLabel': 'Softmax-Jacobi-matrisen, {setting}, d_k = {dk}: største vekt {max}, entropi {entropy} nat, gradientstørrelse {norm}',
  'gradient.jacobianBox': 'Softmax-Jacobi-matrisen, {setting}',
  'gradient.stats': 'største vekt {max}, entropi {entropy} nat; gradientstørrelse ‖∂L/∂z‖ = {norm}',
  'gradient.normTitle': 'Størrelsen på gradienten som når skårene',
  'gradient.normLabel': 'Gradientens størrelse mot d_k, på logaritmisk skala',
  'gradient.normLabelAt': 'Gradientens størrelse mot d_k, på logaritmisk skala; ved d_k = {dk} er gjennomsnittet over radene {unscaled} uskalert og {scaled} skalert',
  'gradient.labMarker': 'labens rad: {value}',
  'gradient.normNote':
    'Linjer: gjennomsnitt over alle rader; sirkler: raden til «{word}»; ◆: labens egen rad ved d = {d}. Tapet L = ⟨g, p⟩ med en fast, tilfeldig g for hver rad, så bare softmax endrer seg mellom punktene. Logaritmisk skala: hver rutelinje er 10 ganger mindre.',

  // påstand 4
  'step.explain': 'Følg spørringen «{word}» gjennom én rad av oppmerksomheten — raden laben viser som stolper. Velg nøkkelen du vil se skalarproduktet for:',
  'step.formulas': 'Formlene',
  'step.keys': 'nøkkel',
  'step.numbers': '({count} tall)',
  'step.more': '… {count} til',
  'step.multiply': 'multipliser komponent for komponent',
  'step.scale': '(skala {value})',
  'step.unscaled': '(uskalert: ingen divisjon)',
  'step.row': 'Det samme for hver nøkkel gir raden med skårer z; softmax gjør den så om til vekter:',
  'step.tableLabel': 'Raden til «{word}», ett steg per linje',
  'step.corner': 'steg',
  'step.scores': 'skårene z',
  'step.shifted': 'hver skår minus den største',
  'step.shiftedT': 'hver skår minus den største, delt på T',
  'step.exps': 'e opphøyd i hver av dem',
  'step.weights': 'vektene p: hver av dem delt på summen',
  'step.max': 'maks = {value}',
  'step.maxMasked': 'maks = {value}; −∞: maskert (kausal)',
  'step.allBelow': 'alle ≤ 0',
  'step.allBelowT': 'alle ≤ 0; T = {t}',
  'step.stats': 'Raden «{word}»: største vekt {max}, entropi {entropy} nat — labens stolper viser det samme.',
  'step.notePositive':
    'Å trekke fra maksimum endrer ingenting i resultatet (det forkortes mellom teller og nevner), men holder hver eksponentialverdi på høyst 1, så ingenting flyter over. Hver vekt er positiv, og vektene summerer til {sum}: raden er en sannsynlighetsfordeling over ordene.',
  'step.noteUnderflow':
    'Å trekke fra maksimum endrer ingenting i resultatet (det forkortes mellom teller og nevner), men holder hver eksponentialverdi på høyst 1, så ingenting flyter over. Hver vekt er minst 0 (noen blir 0 i float32 fordi de er for små), og vektene summerer til {sum}: raden er en sannsynlighetsfordeling over ordene.',

  // temperatur og overløp
  'overflow.explain':
    'Læreboksformelen e^z / Σ e^z fungerer på papiret, men et float32-tall kan ikke være større enn omtrent 3,4·10³⁸, så e^z flyter over til ∞ straks z > {threshold}. Da er summen ∞, og ∞/∞ er NaN («not a number», ikke et tall). Å dele skårene på en temperatur T under 1 gjør vektene skarpere og skårene større; uskalerte skårer ved stor d_k er store allerede.',
  'overflow.temperature': 'temperatur T',
  'overflow.slider': 'temperatur (logaritmisk skala)',
  'overflow.breaks': 'største z/T = {largest} > {threshold}: den naive versjonen bryter sammen',
  'overflow.agree': 'største z/T = {largest} ≤ {threshold}: begge versjonene gir det samme',
  'overflow.tableLabel': 'Den naive og den stabile softmax for raden til «{word}»',
  'overflow.row': 'raden «{word}» ({setting}, d_k = {d})',
  'overflow.naiveExps': 'naiv (ødelagt): e^(z/T)',
  'overflow.naiveWeights': 'naiv (ødelagt): vekter',
  'overflow.stable': 'stabil: softmax(z/T), med maksimum trukket fra',
  'overflow.note':
    'De skyggelagte radene er den ødelagte naive versjonen, vist bare for å se den feile. Den stabile versjonen trekker fra den største skåren først, så den største eksponentialverdien er e⁰ = 1, og ingenting flyter over; vektene er de samme hver gang den naive versjonen fungerer. En høy T gjør vektene nesten flate, en lav T gjør dem spisse.',

  // flere hoder
  'heads.explain':
    'I stedet for én oppmerksomhet med bredde {dk} kjører flerhodet oppmerksomhet {heads} mindre, hver med bredde {dk} / {heads} = {d} og sine egne projeksjoner W_Q, W_K, W_V, slik at hvert hode kan rette oppmerksomheten mot ulike ord. Utdataene deres plasseres side om side (konkateneres) i én rad per ord, som en trent modell så blander med enda en matrise, W_O.',
  'heads.heads': 'hoder h',
  'heads.slider': 'antall hoder',
  'heads.head': 'hode {index}',
  'heads.headLabel': 'Oppmerksomhetsvektene til hode {index}; den største vekten i hver rad: {rows}',
  'heads.cell': 'hode {index}: «{query}» → «{key}» {value}',
  'heads.note': 'Hvert kvadrat: radene er spørringer, kolonnene nøkler, i setningens rekkefølge; mørkere = mer vekt. Hold pekeren over en celle for å se ordparet og vekten.',
  'heads.concat': 'Konkatenerte utdata: {t} × ({heads} · {d}) = {t} × {cols}',
  'heads.concatBox': 'Konkatenerte utdata',
  'heads.concatLabel': 'Konkatenerte utdata fra {heads} hoder, {t} rader × {cols} kolonner, verdier fra −{extent} til {extent}',
  'heads.concatNote': 'Blått er positivt, rødt negativt (skala ±{extent}). Hver blokk er utdataene P·V fra ett hode for hvert ord.',

  // ---- demosiden (index.html) ----
  'page.description': 'En interaktiv forklaring av skalert skalarprodukt-oppmerksomhet på ekte ordvektorer.',
  'page.languages': 'Språk',
  'page.introHtml':
    'En transformer bestemmer hvilke ord den skal «se på» med <strong>oppmerksomhet</strong> (attention): hvert token stiller et spørsmål (spørringen <code>q</code>), hvert token tilbyr et svar (nøkkelen <code>k</code>), og skalarproduktet <code>q·k</code> sier hvor godt de passer sammen. En softmax gjør hver rad av disse skårene om til vekter som summerer til 1: <code>softmax(Q·Kᵀ / √d<sub>k</sub>)</code>.',
  'page.tryHtml':
    'Skriv en setning nedenfor. Ordene blir ekte GloVe-ordvektorer; velg et token for å se hva det retter oppmerksomheten mot. Gjør så <code>d<sub>k</sub></code> bredere med en tilfeldig projeksjon, og slå av skaleringen med <code>√d<sub>k</sub></code>: skalarproduktene vokser med bredden, og softmax smekker over på ett eneste ord.',
  'page.whyHtml': 'Hvorfor dele på √d<sub>k</sub>?',
  'page.whyIntroHtml':
    'Fire påstander om <code>√d<sub>k</sub></code>, hver målt direkte av den samme kjernen, på tilfeldige vektorer og på setningen din. Instrumentene nedenfor følger laben ovenfor — setningen, det valgte tokenet, d<sub>k</sub>, skaleringen, frøet og temperaturen; det finnes bare ett sett med kontroller. De lager sine egne tilfeldige projeksjoner, bestemt av frøet, W<sub>Q</sub> ≠ W<sub>K</sub> av ordvektorene til d<sub>k</sub>: med laben på <em>Identitet</em> er det d<sub>k</sub> = 100, bredden på ordvektorene. (For forfattere av undervisningsopplegg: instrumentene alene finnes på <a href="./lesson.html">en egen side</a>.)',
  'page.guide': 'Se det på under ett minutt',
  'page.guide1Html':
    'Under <b>Innstillinger</b> velger du <b>Tilfeldig</b> (Identitet holder d<sub>k</sub> på 100) og drar <b>d<sub>k</sub></b> til <b>1024</b>. <a href="#claim-1">Påstand 1</a>: variansen til q·k er omtrent 1024; delt på √d<sub>k</sub> holder den seg rundt 1.',
  'page.guide2Html':
    'Slå av <b>Skaler med √d<sub>k</sub></b>. <a href="#claim-2">Påstand 2</a>: radene faller sammen på ett ord — <b>største vekt → 1,00, entropi → 0</b> for flere av dem (prikkene i påstand 2); raden til «cat» kommer nær (stolpene ovenfor viser de samme tallene som instrumentene nedenfor).',
  'page.guide3Html':
    '<a href="#claim-3">Påstand 3</a>: en rad som har falt sammen, sender nesten <b>ingen gradient (→ 0)</b> tilbake: softmax-Jacobi-matrisen blekner til blank, og i diagrammet faller prikken flere størrelsesordener under den skalerte — læringen stopper opp. (Instrumentene viser labens egen rad; gjennomløpene over d<sub>k</sub> bruker labens tilfeldige projeksjon ved hver bredde, så ved labens d<sub>k</sub> viser de de samme tallene.)',
  'page.guide4Html':
    'Slå skaleringen på igjen: vektene sprer seg ut igjen. <a href="#claim-4">Påstand 4</a>: følg én rad steg for steg — hver vekt er positiv, og raden summerer til 1.',
  'page.doIt': 'Gjør det',
  'page.doStep1': 'Gjør det: steg 1, Tilfeldig og d_k = 1024',
  'page.doStep2': 'Gjør det: steg 2, skalering av',
  'page.doStep4': 'Gjør det: steg 4, skalering på',
  'page.footer': 'Ordvektorer: GloVe (Pennington, Socher og Manning, 2014), de 20 000 vanligste ordene (engelske). Alt kjører i nettleseren din.',

  // ---- leksjonen alene (lesson.html) ----
  'lessonPage.title': 'Attention Lab — hvorfor skalert skalarprodukt-oppmerksomhet deler på √d_k',
  'lessonPage.headingHtml': 'Hvorfor oppmerksomhet deler på √d<sub>k</sub>',
  'lessonPage.lede':
    'Fire påstander om skalert skalarprodukt-oppmerksomhet, hver beregnet direkte av kjernen i Attention Lab (C++ kompilert til WebAssembly) på tilfeldige vektorer og på ordene i setningen din.',
  'lessonPage.controls': 'Innstillingene for leksjonen',
  'lessonPage.sentence': 'Setning',
  'lessonPage.query': 'Spørreord',
  'lessonPage.scaledHtml': 'del på √d<sub>k</sub>',
  'lessonPage.seed': 'Frø',
  'lessonPage.loading': 'Laster inn kjernen og ordvektorene …',
  'lessonPage.typeSentence': 'Skriv en setning.',
  'lessonPage.tokens': { one: '{count} token', other: '{count} tokener' },
  'lessonPage.unknown': 'ikke i vokabularet (tilfeldige vektorer): {list}',
  'lessonPage.temperature': 'Temperatur T = {t}, for alle instrumentene (glidebryteren «temperatur»).',
  'lessonPage.coreSimd': 'Kjerne: WebAssembly SIMD.',
  'lessonPage.coreScalar': 'Kjerne: skalar WebAssembly.',
  'lessonPage.couldNotStart': 'Kunne ikke starte: {message}',
  'lessonPage.fullLabHtml': 'De samme instrumentene, styrt av hele laben (varmekart, stolper, sondeord): <a href="./#why">Attention Lab-siden</a>.',
  'lessonPage.credits':
    'Ordvektorer: GloVe (Pennington, Socher & Manning, 2014), 100 dimensjoner, engelske ord. Ord den ikke kjenner, får en deterministisk tilfeldig vektor. Q, K og V kommer fra tilfeldige projeksjoner, bestemt av frøet, av de lagnormaliserte vektorene — en utrent modell, så mønstrene viser regnestykket, ikke lært betydning.',
});
