// Kind pluralisation (§11.1): flect v1.0.3's own singular→plural assertions (flect_test.go
// singlePluralAssertions with doPluralizeTest) as a table, plus the spec's notable Kubernetes-style results.
import { pluralize, wordsOf } from './pluralize.js';
import { DICTIONARY, SUFFIX_RULES } from './pluralize-tables.js';

/** flect_test.go (v1.0.3) pairs whose pluralisation flect tests: both singular and plural map to plural. */
const FLECT_PAIRS: [string, string][] = [
  ['', ''], ['Car', 'Cars'], ['Boy', 'Boys'], ['GoodBoy', 'GoodBoys'], ['Axis', 'Axes'], ['Child', 'Children'],
  ['GoodChild', 'GoodChildren'], ['node_child', 'node_children'], ['SmartPerson', 'SmartPeople'],
  ['great_person', 'great_people'], ['salesperson', 'salespeople'], ['custom_field', 'custom_fields'],
  ['funky jeans', 'funky jeans'], ['payment_information', 'payment_information'],
  ['sportsEquipment', 'sportsEquipment'], ['status_code', 'status_codes'],
  ['user_custom_field', 'user_custom_fields'], ['SuperbOx', 'SuperbOxen'], ['WildOx', 'WildOxen'],
  ['wild_ox', 'wild_oxen'], ['box', 'boxes'], ['fox', 'foxes'], ['comment', 'comments'], ['edge', 'edges'],
  ['equipment', 'equipment'], ['experience', 'experiences'], ['fleet', 'fleets'], ['foobar', 'foobars'],
  ['mouse', 'mice'], ['newsletter', 'newsletters'], ['stack', 'stacks'], ['user', 'users'], ['woman', 'women'],
  ['human', 'humans'], ['spokesman', 'spokesmen'],
  // -f / -fe
  ['calf', 'calves'], ['dwarf', 'dwarfs'], ['elf', 'elves'], ['half', 'halves'], ['knife', 'knives'],
  ['leaf', 'leaves'], ['life', 'lives'], ['loaf', 'loaves'], ['safe', 'saves'], ['scarf', 'scarves'],
  ['self', 'selves'], ['sheaf', 'sheaves'], ['shelf', 'shelves'], ['thief', 'thieves'], ['wharf', 'wharves'],
  ['wife', 'wives'], ['wolf', 'wolves'], ['beef', 'beef'], ['belief', 'beliefs'], ['chef', 'chefs'],
  ['chief', 'chiefs'], ['hoof', 'hoofs'], ['kerchief', 'kerchiefs'], ['roof', 'roofs'], ['archive', 'archives'],
  ['perspective', 'perspectives'],
  // -y
  ['day', 'days'], ['hobby', 'hobbies'], ['agency', 'agencies'], ['body', 'bodies'], ['abbey', 'abbeys'],
  ['jiffy', 'jiffies'], ['geology', 'geologies'], ['geography', 'geographies'], ['cookie', 'cookies'],
  ['sky', 'skies'], ['supply', 'supplies'], ['academy', 'academies'], ['ebony', 'ebonies'], ['boy', 'boys'],
  ['copy', 'copies'], ['category', 'categories'], ['embassy', 'embassies'], ['entity', 'entities'],
  ['guy', 'guys'], ['obsequy', 'obsequies'], ['navy', 'navies'], ['proxy', 'proxies'], ['crazy', 'crazies'],
  // French -u
  ['aboideau', 'aboideaux'], ['beau', 'beaux'], ['château', 'châteaux'], ['chateau', 'chateaux'],
  ['fabliau', 'fabliaux'], ['tableau', 'tableaux'], ['bureau', 'bureaus'], ['adieu', 'adieux'],
  // Greek -on
  ['tetrahedron', 'tetrahedra'],
  // Latin -um
  ['stadium', 'stadiums'], ['aquarium', 'aquaria'], ['auditorium', 'auditoria'], ['bacterium', 'bacteria'],
  ['pretorium', 'pretoriums'], ['symposium', 'symposia'], ['amoebaeum', 'amoebaea'], ['coliseum', 'coliseums'],
  ['museum', 'museums'], ['agenda', 'agendas'], ['curriculum', 'curriculums'], ['collum', 'colla'],
  ['datum', 'data'], ['erratum', 'errata'], ['maximum', 'maxima'], ['platinum', 'platinums'], ['serum', 'sera'],
  ['spectrum', 'spectra'],
  // Latin -us, -a
  ['opera', 'operas'], ['alumna', 'alumnae'], ['larva', 'larvae'], ['minutia', 'minutiae'], ['nebula', 'nebulae'],
  ['vertebra', 'vertebrae'], ['vita', 'vitae'], ['antenna', 'antennas'], ['formula', 'formulas'], ['tuna', 'tuna'],
  ['quota', 'quotas'], ['vedalia', 'vedalias'], ['media', 'media'], ['multimedia', 'multimedia'],
  // -ch, -o, -s, -sh, -x, -z
  ['lunch', 'lunches'], ['search', 'searches'], ['switch', 'switches'], ['headache', 'headaches'],
  ['marsh', 'marshes'], ['wish', 'wishes'], ['bus', 'buses'], ['campus', 'campuses'], ['caucus', 'caucuses'],
  ['circus', 'circuses'], ['plus', 'pluses'], ['prometheus', 'prometheuses'], ['status', 'statuses'],
  ['virus', 'viruses'], ['use', 'uses'], ['fuse', 'fuses'], ['house', 'houses'], ['spouse', 'spouses'],
  ['quiz', 'quizzes'], ['buzz', 'buzzes'], ['blitz', 'blitzes'], ['quartz', 'quartzes'], ['topaz', 'topazes'],
  ['waltz', 'waltzes'], ['prize', 'prizes'], ['access', 'accesses'], ['process', 'processes'],
  ['address', 'addresses'], ['case', 'cases'], ['database', 'databases'], ['glimpse', 'glimpses'],
  ['horse', 'horses'], ['lapse', 'lapses'], ['collapse', 'collapses'], ['truss', 'trusses'],
  ['portfolio', 'portfolios'], ['piano', 'pianos'], ['hello', 'hellos'], ['buffalo', 'buffaloes'],
  ['photo', 'photos'], ['potato', 'potatoes'], ['tomato', 'tomatoes'], ['graffiti', 'graffiti'], ['foo', 'foos'],
  ['zoo', 'zoos'],
  // Latin -ex / -ix
  ['appendix', 'appendices'], ['codex', 'codices'], ['index', 'indices'], ['bodice', 'bodices'],
  ['helix', 'helices'], ['complex', 'complexes'], ['duplex', 'duplexes'], ['accomplice', 'accomplices'],
  ['slice', 'slices'], ['matrix', 'matrices'], ['justice', 'justices'], ['lattice', 'lattices'],
  ['notice', 'notices'], ['apex', 'apices'], ['spice', 'spices'], ['device', 'devices'], ['service', 'services'],
  ['fix', 'fixes'], ['sex', 'sexes'], ['invoice', 'invoices'], ['voice', 'voices'], ['choice', 'choices'],
  // Latin -is
  ['axis', 'axes'], ['tax', 'taxes'], ['eclipse', 'eclipses'], ['ellipse', 'ellipses'], ['ellipsis', 'ellipses'],
  ['oasis', 'oases'], ['thesis', 'theses'], ['hypothesis', 'hypotheses'], ['parenthesis', 'parentheses'],
  ['analysis', 'analyses'], ['antithesis', 'antitheses'], ['diagnosis', 'diagnoses'], ['prognosis', 'prognoses'],
  ['synopsis', 'synopses'], ['synapse', 'synapses'], ['waste', 'wastes'], ['psi', 'psis'], ['pepsi', 'pepsis'],
];

describe('pluralize (flect v1.0.3)', () => {
  it('ports the full tables (126 dictionary words, 77 suffix rules)', () => {
    expect(DICTIONARY).toHaveLength(126);
    expect(SUFFIX_RULES).toHaveLength(77);
  });

  it.each(FLECT_PAIRS)('flect: %s → %s (and the plural stays)', (singular, plural) => {
    expect(pluralize(singular)).toBe(plural);
    expect(pluralize(plural)).toBe(plural);
  });

  it.each([
    ['CronJob', 'cronjobs'], ['TestQuota', 'testquotas'], ['Policy', 'policies'], ['Gateway', 'gateways'],
    ['Proxy', 'proxies'], ['Status', 'statuses'], ['Ingress', 'ingresses'], ['Address', 'addresses'],
    ['Index', 'indices'], ['Matrix', 'matrices'], ['Database', 'databases'], ['Cache', 'caches'],
    ['Person', 'people'], ['Child', 'children'], ['Quota', 'quotas'], ['Redis', 'redis'], ['Analysis', 'analyses'],
    ['Leaf', 'leaves'], ['Knife', 'knives'], ['Hero', 'heroes'], ['Photo', 'photos'],
    ['ImmutableType', 'immutabletypes'], ['VersionedResource', 'versionedresources'],
  ])('spec §11.1: %s → %s', (kind, plural) => {
    expect(pluralize(kind).toLowerCase()).toBe(plural);
  });

  it('works on the last CamelCase word and keeps its capital', () => {
    expect(pluralize('MachineIndex')).toBe('MachineIndices');
    expect(pluralize('ClusterPolicy')).toBe('ClusterPolicies');
    expect(pluralize('BackupSchedule')).toBe('BackupSchedules');
  });

  it('matches exact-only words whole, not as suffixes', () => {
    expect(pluralize('ID')).toBe('IDs');
    expect(pluralize('Box')).toBe('Boxes'); // "ox" is exact: no "-ox → -oxen" suffix rule
    expect(pluralize('Toe')).toBe('Toes');
    expect(pluralize('Tiptoe')).toBe('Tiptoes');
  });

  it('splits words at case changes, separators and known acronyms', () => {
    expect(wordsOf('CronJob')).toEqual(['Cron', 'Job']);
    expect(wordsOf('HTTPRoute')).toEqual(['HTTP', 'Route']);
    expect(wordsOf('node_child')).toEqual(['node', 'child']);
    expect(wordsOf('api')).toEqual(['API']);
    expect(pluralize('HTTPRoute')).toBe('HTTPRoutes');
  });

  it('keeps flect v1.0.3 quirks with acronyms (gobuffalo/flect#71): suffix rules see the upper-cased word', () => {
    expect(pluralize('DNS')).toBe('DNSes');
    expect(pluralize('DNSRecord')).toBe('DNSRecords');
    expect(pluralize('dns')).toBe('dnsDNSes');
  });
});
