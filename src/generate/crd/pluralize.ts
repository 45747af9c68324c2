/**
 * English pluralisation of Kind names, compatible with gobuffalo/flect as controller-gen uses it for
 * `names.plural` (spec §11.1): irregular dictionary first (whole word, then the last CamelCase word),
 * then suffix rules (dictionary-derived ones before the generic list), then "ends in s ⇒ unchanged",
 * else append "s". The caller lower-cases the result.
 */

/** Irregular singular → plural pairs (flect's dictionary). */
const IRREGULAR: Record<string, string> = {
  human: 'humans', matrix: 'matrices', vertix: 'vertices', index: 'indices', mouse: 'mice', louse: 'lice',
  ress: 'resses', ox: 'oxen', quiz: 'quizzes', series: 'series', octopus: 'octopi', equipment: 'equipment',
  information: 'information', rice: 'rice', money: 'money', species: 'species', fish: 'fish', sheep: 'sheep',
  jeans: 'jeans', police: 'police', dear: 'dear', goose: 'geese', tooth: 'teeth', foot: 'feet', bus: 'buses',
  fez: 'fezzes', piano: 'pianos', halo: 'halos', photo: 'photos', aircraft: 'aircraft', alumna: 'alumnae',
  alumnus: 'alumni', analysis: 'analyses', antenna: 'antennas', antithesis: 'antitheses', apex: 'apexes',
  appendix: 'appendices', axis: 'axes', bacillus: 'bacilli', bacterium: 'bacteria', basis: 'bases', beau: 'beaus',
  bison: 'bison', bureau: 'bureaus', campus: 'campuses', château: 'châteaux', codex: 'codices', concerto: 'concertos',
  corpus: 'corpora', crisis: 'crises', curriculum: 'curriculums', deer: 'deer', diagnosis: 'diagnoses', die: 'dice',
  dwarf: 'dwarves', ellipsis: 'ellipses', erratum: 'errata', 'faux pas': 'faux pas', focus: 'foci', formula: 'formulas',
  fungus: 'fungi', genus: 'genera', graffito: 'graffiti', grouse: 'grouse', half: 'halves', hoof: 'hooves',
  hypothesis: 'hypotheses', larva: 'larvae', libretto: 'librettos', loaf: 'loaves', locus: 'loci', minutia: 'minutiae',
  moose: 'moose', nebula: 'nebulae', nucleus: 'nuclei', oasis: 'oases', offspring: 'offspring', opus: 'opera',
  parenthesis: 'parentheses', phenomenon: 'phenomena', phylum: 'phyla', prognosis: 'prognoses', radius: 'radiuses',
  referendum: 'referendums', salmon: 'salmon', shrimp: 'shrimp', stimulus: 'stimuli', stratum: 'strata', swine: 'swine',
  syllabus: 'syllabi', symposium: 'symposiums', synopsis: 'synopses', tableau: 'tableaus', thesis: 'theses',
  thief: 'thieves', trout: 'trout', tuna: 'tuna', vertebra: 'vertebrae', vita: 'vitae', vortex: 'vortices',
  wharf: 'wharves', wife: 'wives', wolf: 'wolves', datum: 'data', testis: 'testes', alias: 'aliases', shoe: 'shoes',
  news: 'news', ovum: 'ova', person: 'people', child: 'children', leaf: 'leaves', knife: 'knives', man: 'men',
};

/** Generic suffix rules, in order: [singular suffix, plural suffix]. */
const SUFFIX_RULES: [string, string][] = [
  ['campus', 'campuses'], ['man', 'men'], ['tz', 'tzes'], ['alias', 'aliases'], ['oasis', 'oasis'], ['wife', 'wives'],
  ['basis', 'basis'], ['atum', 'ata'], ['adium', 'adia'], ['actus', 'acti'], ['irus', 'iri'], ['iterion', 'iteria'],
  ['dium', 'diums'], ['ovum', 'ova'], ['ize', 'izes'], ['dge', 'dges'], ['focus', 'foci'], ['child', 'children'],
  ['oaf', 'oaves'], ['eaf', 'eaves'], ['randum', 'randa'], ['base', 'bases'], ['atus', 'atuses'], ['ode', 'odes'],
  ['person', 'people'], ['va', 'vae'], ['leus', 'li'], ['oot', 'eet'], ['oose', 'eese'], ['box', 'boxes'], ['ium', 'ia'],
  ['sis', 'ses'], ['nna', 'nnas'], ['eses', 'esis'], ['stis', 'stes'], ['ex', 'ices'], ['ula', 'ulae'], ['isis', 'ises'],
  ['use', 'uses'], ['lf', 'lves'], ['rf', 'rves'], ['ife', 'ives'], ['fe', 'ves'], ['hive', 'hives'], ['quy', 'quies'],
  ['by', 'bies'], ['cy', 'cies'], ['dy', 'dies'], ['fy', 'fies'], ['gy', 'gies'], ['hy', 'hies'], ['jy', 'jies'],
  ['ky', 'kies'], ['ly', 'lies'], ['my', 'mies'], ['ny', 'nies'], ['py', 'pies'], ['qy', 'qies'], ['ry', 'ries'],
  ['sy', 'sies'], ['ty', 'ties'], ['vy', 'vies'], ['wy', 'wies'], ['xy', 'xies'], ['zy', 'zies'], ['x', 'xes'],
  ['ch', 'ches'], ['ss', 'sses'], ['sh', 'shes'], ['oe', 'oes'], ['io', 'ios'], ['lo', 'los'], ['to', 'tos'],
  ['oo', 'oos'], ['ano', 'anos'], ['o', 'oes'],
];

const PLURAL_TO_SINGULAR = new Map(Object.entries(IRREGULAR).map(([s, p]) => [p, s]));

/** Rules tried in order: [suffix, replacement or null for "already plural"]. */
const RULES: [string, string | null][] = (() => {
  const dictionary = Object.entries(IRREGULAR).sort(([a], [b]) => b.length - a.length);
  const rules: [string, string | null][] = [];
  for (const [singular, plural] of [...dictionary, ...SUFFIX_RULES]) {
    rules.push([singular, plural]);
    rules.push([plural, null]);
  }
  return rules;
})();

/** Splits `CronJob` → prefix `Cron`, last word `Job`. */
function lastWord(s: string): [string, string] {
  for (let i = s.length - 1; i > 0; i--) {
    const c = s[i]!;
    if (c >= 'A' && c <= 'Z' && s[i - 1]! >= 'a' && s[i - 1]! <= 'z') return [s.slice(0, i), s.slice(i)];
  }
  return ['', s];
}

/** Plural of a Kind name (case kept; controller-gen lower-cases it). */
export function pluralize(word: string): string {
  if (word === '') return '';
  const lower = word.toLowerCase();
  if (PLURAL_TO_SINGULAR.has(lower)) return word;
  if (IRREGULAR[lower] !== undefined) return IRREGULAR[lower]!;
  const [prefix, last] = lastWord(word);
  const lowerLast = last.toLowerCase();
  if (prefix && PLURAL_TO_SINGULAR.has(lowerLast)) return word;
  if (prefix && IRREGULAR[lowerLast] !== undefined) {
    const plural = IRREGULAR[lowerLast]!;
    return prefix + (last[0] === last[0]!.toUpperCase() ? plural[0]!.toUpperCase() + plural.slice(1) : plural);
  }
  for (const [suffix, replacement] of RULES) {
    if (!lower.endsWith(suffix)) continue;
    return replacement === null ? word : word.slice(0, word.length - suffix.length) + replacement;
  }
  return lower.endsWith('s') ? word : `${word}s`;
}
