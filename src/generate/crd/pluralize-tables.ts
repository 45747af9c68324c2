/**
 * The word tables of gobuffalo/flect v1.0.3 (plural_rules.go and acronyms.go) as data: the 126-entry
 * dictionary, the 77 ordered suffix rules, and the acronyms that split and upper-case CamelCase parts.
 */

/** One dictionary word: plural omitted ⇒ uncountable (plural = singular). */
export interface DictionaryWord {
  singular: string;
  plural?: string;
  alternative?: string;
  /** Plural → singular is not registered (flect `unidirectional`). */
  oneWay?: boolean;
  /** Whole-word only: no suffix rule is derived from it (flect `exact`). */
  exact?: boolean;
}

/** flect v1.0.3 `dictionary`, in its order (the order sets suffix-rule priority). */
export const DICTIONARY: readonly DictionaryWord[] = [
  // identical singular and plural
  { singular: 'aircraft', plural: 'aircraft' },
  { singular: 'beef', plural: 'beef', alternative: 'beefs' },
  { singular: 'bison', plural: 'bison' },
  { singular: 'blues', plural: 'blues', oneWay: true },
  { singular: 'chassis', plural: 'chassis' },
  { singular: 'deer', plural: 'deer' },
  { singular: 'fish', plural: 'fish', alternative: 'fishes' },
  { singular: 'moose', plural: 'moose' },
  { singular: 'police', plural: 'police' },
  { singular: 'salmon', plural: 'salmon', alternative: 'salmons' },
  { singular: 'series', plural: 'series' },
  { singular: 'sheep', plural: 'sheep' },
  { singular: 'shrimp', plural: 'shrimp', alternative: 'shrimps' },
  { singular: 'species', plural: 'species' },
  { singular: 'swine', plural: 'swine', alternative: 'swines' },
  { singular: 'trout', plural: 'trout', alternative: 'trouts' },
  { singular: 'tuna', plural: 'tuna', alternative: 'tunas' },
  { singular: 'you', plural: 'you' },
  // -en
  { singular: 'child', plural: 'children' },
  { singular: 'ox', plural: 'oxen', exact: true },
  // apophonic
  { singular: 'foot', plural: 'feet' },
  { singular: 'goose', plural: 'geese' },
  { singular: 'man', plural: 'men' },
  { singular: 'human', plural: 'humans' },
  { singular: 'louse', plural: 'lice', exact: true },
  { singular: 'mouse', plural: 'mice' },
  { singular: 'tooth', plural: 'teeth' },
  { singular: 'woman', plural: 'women' },
  // miscellaneous
  { singular: 'die', plural: 'dice', exact: true },
  { singular: 'person', plural: 'people' },
  // French -u
  { singular: 'adieu', plural: 'adieux', alternative: 'adieus' },
  { singular: 'fabliau', plural: 'fabliaux' },
  { singular: 'bureau', plural: 'bureaus', alternative: 'bureaux' },
  // Greek -on → -a
  { singular: 'criterion', plural: 'criteria' },
  { singular: 'ganglion', plural: 'ganglia', alternative: 'ganglions' },
  { singular: 'lexicon', plural: 'lexica', alternative: 'lexicons' },
  { singular: 'mitochondrion', plural: 'mitochondria', alternative: 'mitochondrions' },
  { singular: 'noumenon', plural: 'noumena' },
  { singular: 'phenomenon', plural: 'phenomena' },
  { singular: 'taxon', plural: 'taxa' },
  // Latin -um → -a
  { singular: 'media', plural: 'media' },
  { singular: 'medium', plural: 'media', alternative: 'mediums', oneWay: true },
  { singular: 'stadium', plural: 'stadiums', alternative: 'stadia' },
  { singular: 'aquarium', plural: 'aquaria', alternative: 'aquariums' },
  { singular: 'auditorium', plural: 'auditoria', alternative: 'auditoriums' },
  { singular: 'symposium', plural: 'symposia', alternative: 'symposiums' },
  { singular: 'curriculum', plural: 'curriculums', alternative: 'curricula' },
  { singular: 'quota', plural: 'quotas' },
  // Latin -us → -i / -era
  { singular: 'alumnus', plural: 'alumni', alternative: 'alumnuses' },
  { singular: 'bacillus', plural: 'bacilli' },
  { singular: 'cactus', plural: 'cacti', alternative: 'cactuses' },
  { singular: 'coccus', plural: 'cocci' },
  { singular: 'focus', plural: 'foci', alternative: 'focuses' },
  { singular: 'locus', plural: 'loci', alternative: 'locuses' },
  { singular: 'nucleus', plural: 'nuclei', alternative: 'nucleuses' },
  { singular: 'octopus', plural: 'octupuses', alternative: 'octopi' },
  { singular: 'radius', plural: 'radii', alternative: 'radiuses' },
  { singular: 'syllabus', plural: 'syllabi' },
  { singular: 'corpus', plural: 'corpora', alternative: 'corpuses' },
  { singular: 'genus', plural: 'genera' },
  // Latin -a → -ae
  { singular: 'alumna', plural: 'alumnae' },
  { singular: 'vertebra', plural: 'vertebrae' },
  { singular: 'differentia', plural: 'differentiae' },
  { singular: 'minutia', plural: 'minutiae' },
  { singular: 'vita', plural: 'vitae' },
  { singular: 'larva', plural: 'larvae' },
  { singular: 'postcava', plural: 'postcavae' },
  { singular: 'praecava', plural: 'praecavae' },
  { singular: 'uva', plural: 'uvae' },
  // Latin -ex → -ices
  { singular: 'apex', plural: 'apices', alternative: 'apexes' },
  { singular: 'codex', plural: 'codices', alternative: 'codexes' },
  { singular: 'index', plural: 'indices', alternative: 'indexes' },
  { singular: 'latex', plural: 'latices', alternative: 'latexes' },
  { singular: 'vertex', plural: 'vertices', alternative: 'vertexes' },
  { singular: 'vortex', plural: 'vortices', alternative: 'vortexes' },
  // Latin -ix → -ices
  { singular: 'appendix', plural: 'appendices', alternative: 'appendixes' },
  { singular: 'radix', plural: 'radices', alternative: 'radixes' },
  { singular: 'helix', plural: 'helices', alternative: 'helixes' },
  // Latin -is → -es
  { singular: 'axis', plural: 'axes', exact: true },
  { singular: 'crisis', plural: 'crises' },
  { singular: 'ellipsis', plural: 'ellipses', oneWay: true },
  { singular: 'genesis', plural: 'geneses' },
  { singular: 'oasis', plural: 'oases' },
  { singular: 'thesis', plural: 'theses' },
  { singular: 'testis', plural: 'testes' },
  { singular: 'base', plural: 'bases' },
  { singular: 'basis', plural: 'bases', oneWay: true },
  { singular: 'alias', plural: 'aliases', exact: true },
  { singular: 'vedalia', plural: 'vedalias' },
  // -ch, -o, -s, -sh, -x, -z
  { singular: 'use', plural: 'uses', exact: true },
  { singular: 'abuse', plural: 'abuses' },
  { singular: 'cause', plural: 'causes' },
  { singular: 'clause', plural: 'clauses' },
  { singular: 'cruse', plural: 'cruses' },
  { singular: 'excuse', plural: 'excuses' },
  { singular: 'fuse', plural: 'fuses' },
  { singular: 'house', plural: 'houses' },
  { singular: 'misuse', plural: 'misuses' },
  { singular: 'muse', plural: 'muses' },
  { singular: 'pause', plural: 'pauses' },
  { singular: 'ache', plural: 'aches' },
  { singular: 'topaz', plural: 'topazes' },
  { singular: 'buffalo', plural: 'buffaloes', alternative: 'buffalos' },
  { singular: 'potato', plural: 'potatoes' },
  { singular: 'tomato', plural: 'tomatoes' },
  // uncountables
  { singular: 'equipment' },
  { singular: 'information' },
  { singular: 'jeans' },
  { singular: 'money' },
  { singular: 'news' },
  { singular: 'rice' },
  // exceptions to -f(e) → -ves
  { singular: 'dwarf', plural: 'dwarfs', alternative: 'dwarves' },
  { singular: 'hoof', plural: 'hoofs', alternative: 'hooves' },
  { singular: 'thief', plural: 'thieves' },
  { singular: 'chive', plural: 'chives' },
  { singular: 'hive', plural: 'hives' },
  { singular: 'move', plural: 'moves' },
  // exceptions to -y → -ies
  { singular: 'movie', plural: 'movies' },
  { singular: 'cookie', plural: 'cookies' },
  // exceptions to -um → -a
  { singular: 'pretorium', plural: 'pretoriums' },
  { singular: 'agenda', plural: 'agendas' },
  { singular: 'formula', plural: 'formulas', alternative: 'formulae' },
  // exceptions to -o → -oes
  { singular: 'shoe', plural: 'shoes' },
  { singular: 'toe', plural: 'toes', exact: true },
  { singular: 'graffiti', plural: 'graffiti' },
  // abbreviations
  { singular: 'ID', plural: 'IDs', exact: true },
];

/** flect v1.0.3 `singularToPluralSuffixList`: [singular suffix, plural suffix]; order is priority. */
export const SUFFIX_RULES: readonly (readonly [string, string])[] = [
  ['tive', 'tives'], ['eaf', 'eaves'], ['oaf', 'oaves'], ['afe', 'aves'], ['arf', 'arves'], ['rfe', 'rves'],
  ['rf', 'rves'], ['lf', 'lves'], ['fe', 'ves'],
  ['ay', 'ays'], ['ey', 'eys'], ['oy', 'oys'], ['quy', 'quies'], ['uy', 'uys'], ['y', 'ies'],
  ['eau', 'eaux'],
  ['bula', 'bulae'], ['dula', 'bulae'], ['lula', 'bulae'], ['nula', 'bulae'], ['vula', 'bulae'],
  ['hedron', 'hedra'],
  ['ium', 'ia'], ['seum', 'seums'], ['eum', 'ea'], ['oum', 'oa'], ['stracum', 'straca'], ['dum', 'da'],
  ['elum', 'ela'], ['ilum', 'ila'], ['olum', 'ola'], ['ulum', 'ula'], ['llum', 'lla'], ['ylum', 'yla'],
  ['imum', 'ima'], ['ernum', 'erna'], ['gnum', 'gna'], ['brum', 'bra'], ['crum', 'cra'], ['terum', 'tera'],
  ['serum', 'sera'], ['trum', 'tra'], ['antum', 'anta'], ['atum', 'ata'], ['entum', 'enta'], ['etum', 'eta'],
  ['itum', 'ita'], ['otum', 'ota'], ['utum', 'uta'], ['ctum', 'cta'], ['ovum', 'ova'],
  ['trix', 'trices'],
  ['iasis', 'iases'], ['mesis', 'meses'], ['kinesis', 'kineses'], ['resis', 'reses'], ['gnosis', 'gnoses'],
  ['opsis', 'opses'], ['ysis', 'yses'],
  ['ouse', 'ouses'], ['lause', 'lauses'], ['us', 'uses'],
  ['ch', 'ches'], ['io', 'ios'], ['sh', 'shes'], ['ss', 'sses'], ['ez', 'ezzes'], ['iz', 'izzes'], ['tz', 'tzes'],
  ['zz', 'zzes'], ['ano', 'anos'], ['lo', 'los'], ['to', 'tos'], ['oo', 'oos'], ['o', 'oes'], ['x', 'xes'],
  ['S', 'Ses'],
];

/** flect `baseAcronyms` (looked up by the upper-cased part, so mixed-case keys never match, as in flect). */
export const ACRONYMS: ReadonlySet<string> = new Set(
  ('OK UTF8 HTML JSON JWT ID UUID SQL ACK ACL ADSL AES ANSI API ARP ATM BGP BSS CCITT CHAP CIDR CIR CLI CPE CPU ' +
    'CRC CRT CSMA CMOS DCE DEC DES DHCP DNS DRAM DSL DSLAM DTE DMI EHA EIA EIGRP EOF ESS FCC FCS FDDI FTP GBIC ' +
    'gbps GEPOF HDLC HTTP HTTPS IANA ICMP IDF IDS IEEE IETF IMAP IP IPS ISDN ISP kbps LACP LAN LAPB LAPF LLC MAC ' +
    'Mbps MC MDF MIB MoCA MPLS MTU NAC NAT NBMA NIC NRZ NRZI NVRAM OIDC OSI OSPF OUI PAP PAT PC PIM PCM PDU POP3 ' +
    'POTS PPP PPTP PTT PVST RAM RARP RFC RIP RLL ROM RSTP RTP RCP SDLC SFD SFP SLARP SLIP SMTP SNA SNAP SNMP SOF ' +
    'SRAM SSH SSID STP SYN TDM TFTP TIA TOFU UDP URL URI USB UTP VC VLAN VLSM VPN W3C WAN WEP WiFi WPA WWW').split(' '),
);
