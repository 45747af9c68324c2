/**
 * Splits the comment lines attached to one node (package, type or field) into markers and description
 * lines, and checks each marker against the catalogue.
 *
 * Unknown `+` lines (the rule, also in markers/README.md): controller-gen silently ignores names it does not
 * know, so kubeforge reads them as *warnings* (printed with file:line:col and "did you mean" when a catalogue
 * name is close; `manifests` still writes; `--strict-markers` makes them errors) — except a *typo of a known
 * marker*, which stays an error: a name made only of name characters (letters, digits, `_`, `-`, `:`) whose
 * last `:` segment is within 2 edits (or only a letter-case change) of a catalogue name with the same
 * prefix before that segment (`+kubebuilder:validation:Minimun`, `+optinal`, `+kubebuilder:rbca:groups=…`).
 * Not typos, so warnings: stray text after a known name (`+optional.`, `+kubebuilder:validation:UniqueItems:true`),
 * names far from any marker (`+kubebuilder:validation:OneOf=…`), other tools' markers not listed in
 * markers/ignored.json. Names in markers/ignored.json (`+genclient`, `+k8s:openapi-gen`, …) are accepted
 * silently. Every `+` line is kept out of the description either way (controller-gen §2.1).
 *
 * Target rules: a known marker on the wrong target is an error, except that package-level markers
 * (`+kubebuilder:rbac`, `+groupName`, …) met on a type or field are skipped without error (they are
 * collected file-wide by `scanFileMarkers`, like controller-gen's re-association to the package), and
 * type/field markers met while scanning at package level are skipped too (their node collects them).
 */
import { findMarkerDefinitions, isIgnoredMarkerName, markerCatalogue, type MarkerDefinition } from './catalogue.js';
import { parseMarkerArguments } from './parse-arguments.js';
import { closestName } from './suggest.js';
import type { CommentLine, Diagnostic, Marker, MarkerTarget, MarkerValue, SourcePosition } from './types.js';

export interface CollectedMarkers {
  markers: Marker[];
  descriptionLines: CommentLine[];
  diagnostics: Diagnostic[];
}

export interface CollectOptions {
  /** Report unknown markers (default true); turn off when another pass over the same lines reports them. */
  reportUnknown?: boolean;
}

/** Splits `lines` into markers (checked for `target`) and description lines, in order. */
export function collectMarkers(lines: CommentLine[], target: MarkerTarget, options: CollectOptions = {}): CollectedMarkers {
  const result: CollectedMarkers = { markers: [], descriptionLines: [], diagnostics: [] };
  for (const line of lines) {
    const trimmedStart = line.text.trimStart();
    if (!trimmedStart.startsWith('+')) {
      result.descriptionLines.push(line);
      continue;
    }
    const position = { ...line.position, column: line.position.column + (line.text.length - trimmedStart.length) };
    const outcome = readMarker(trimmedStart.trimEnd(), target, position, options);
    if (outcome.marker) result.markers.push(outcome.marker);
    result.diagnostics.push(...outcome.diagnostics);
  }
  return result;
}

/** The result of reading one `+…` text: a marker, diagnostics, or neither (ignored). */
export interface MarkerReading {
  marker?: Marker;
  diagnostics: Diagnostic[];
}

/** A reading without its position: the same text on the same kind of node always reads the same. */
interface ReadingAnywhere {
  marker: { name: string; args: Record<string, MarkerValue> } | undefined;
  /** Each message with its column relative to the marker's `+` (0 = at the `+`). */
  messages: Array<{ message: string; columnOffset: number; severity?: 'warning' }>;
}

/**
 * Readings by reporting option, target and text. Projects repeat their markers (`+optional`, the same
 * validation on many fields), and the catalogue does not change while a process runs, so each distinct text
 * is parsed once. Markers of one text share their `args` object, which nobody changes (model data is read-only).
 */
const readings = {
  reported: { package: new Map<string, ReadingAnywhere>(), type: new Map<string, ReadingAnywhere>(), field: new Map<string, ReadingAnywhere>() },
  unreported: { package: new Map<string, ReadingAnywhere>(), type: new Map<string, ReadingAnywhere>(), field: new Map<string, ReadingAnywhere>() },
};

/** Reads one marker text (starting with `+`) found at `position` on a node of kind `target`. */
export function readMarker(text: string, target: MarkerTarget, position: SourcePosition, options: CollectOptions = {}): MarkerReading {
  const known = (options.reportUnknown === false ? readings.unreported : readings.reported)[target];
  let reading = known.get(text);
  if (reading === undefined) {
    const found = readMarkerAt(text, target, position, options);
    reading = {
      marker: found.marker ? { name: found.marker.name, args: found.marker.args } : undefined,
      messages: found.diagnostics.map((d) => ({
        message: d.message,
        columnOffset: d.position.column - position.column,
        ...(d.severity ? { severity: d.severity } : {}),
      })),
    };
    known.set(text, reading);
  }
  const diagnostics = reading.messages.map(({ message, columnOffset, severity }) => ({
    position: { ...position, column: position.column + columnOffset },
    message,
    ...(severity ? { severity } : {}),
  }));
  if (reading.marker === undefined) return { diagnostics };
  return { marker: { name: reading.marker.name, args: reading.marker.args, text, position }, diagnostics };
}

function readMarkerAt(text: string, target: MarkerTarget, position: SourcePosition, options: CollectOptions): MarkerReading {
  if (!/^\+[\p{L}_]/u.test(text)) return { diagnostics: [] };
  const body = text.slice(1);
  const equals = body.indexOf('=');
  const fullName = equals < 0 ? body : body.slice(0, equals);
  const rest = equals < 0 ? '' : body.slice(equals + 1);
  const lastColon = fullName.lastIndexOf(':');
  const prefixName = equals >= 0 && lastColon > 0 ? fullName.slice(0, lastColon) : undefined;

  // As controller-gen: the full name among this target's definitions, else the name without its last segment.
  const exact = findMarkerDefinitions(fullName);
  const viaPrefix = prefixName ? findMarkerDefinitions(prefixName) : [];
  const exactDefinition = exact.find((d) => d.target === target);
  const definition = exactDefinition ?? viaPrefix.find((d) => d.target === target);

  if (!definition) {
    const candidates = exact.length > 0 ? exact : viaPrefix;
    if (candidates.length > 0) {
      // Package markers on a type/field, and type/field markers in a file-wide scan, belong to another pass.
      if (target === 'package' || candidates.every((d) => d.target === 'package')) return { diagnostics: [] };
      const where = candidates.map((d) => d.target).join(', ');
      return { diagnostics: [{ position, message: `marker ${JSON.stringify(text)} cannot be used on a ${target} (it applies to: ${where})` }] };
    }
    const firstWord = fullName.split(/\s/, 1)[0]!; // `+build linux`: Go's build constraint, named by its first word
    if (options.reportUnknown === false || isIgnoredMarkerName(firstWord) || (prefixName && isIgnoredMarkerName(prefixName))) {
      return { diagnostics: [] };
    }
    return unknownMarker(text, fullName, prefixName, position);
  }

  const viaLastSegment = !exactDefinition && definition.shape === 'args';
  const argumentText = viaLastSegment ? `${fullName.slice(lastColon + 1)}=${rest}` : rest;
  const parsed = parseMarkerArguments(definition, argumentText);
  if (parsed.errors.length > 0) {
    // The argument text starts after the `+`, at the last name segment or after the `=`; errors point into it.
    const argumentsAt = 1 + (viaLastSegment ? lastColon + 1 : equals + 1);
    const at = parsed.errorColumn === undefined ? position : { ...position, column: position.column + argumentsAt + parsed.errorColumn - 1 };
    return { diagnostics: parsed.errors.map((e) => ({ position: at, message: `marker ${JSON.stringify(text)}: ${withArgumentSuggestion(e, definition)}` })) };
  }
  if (definition.args.some((a) => a.type === 'json') && !('' in parsed.args)) return { diagnostics: [] }; // `+default=ref(...)`
  return { marker: { name: definition.name, args: parsed.args, text, position }, diagnostics: [] };
}

function unknownMarker(text: string, fullName: string, prefixName: string | undefined, position: SourcePosition): MarkerReading {
  const names = new Set(markerCatalogue().definitions.map((d) => d.name));
  // For `+kubebuilder:rbca:groups=…` the typo may be in the prefix: quote and correct that part.
  const typoOfPrefix = prefixName ? typoOf(prefixName, names) : undefined;
  const typoOfName = typoOf(fullName, names);
  const inPrefix = typoOfPrefix !== undefined && (typoOfName === undefined || typoOfPrefix.distance < typoOfName.distance);
  const typo = inPrefix ? typoOfPrefix : typoOfName;
  if (typo) {
    const shown = inPrefix ? `+${prefixName}` : equalsPart(text);
    return { diagnostics: [{ position, message: `unknown marker ${JSON.stringify(shown)} (did you mean "+${typo.name}"?)` }] };
  }
  const hint = ignoredMarkerHint(fullName, names);
  return {
    diagnostics: [
      { position, severity: 'warning', message: `unknown marker ${JSON.stringify(equalsPart(text))}${hint ? ` (did you mean "${hint}"?)` : ''}; controller-gen ignores it` },
    ],
  };
}

const NAME_CHARACTERS = /^[\p{L}\p{N}_:-]+$/u;

/** The catalogue name `name` is a typo of (same prefix, last segment within 2 edits or a case change), if any. */
function typoOf(name: string, names: ReadonlySet<string>): { name: string; distance: number } | undefined {
  if (!NAME_CHARACTERS.test(name)) return undefined;
  const colon = name.lastIndexOf(':');
  const prefix = name.slice(0, colon + 1);
  const segment = name.slice(colon + 1);
  if (segment.length < 4) return undefined;
  const sameScope = [...names].filter((n) => n.startsWith(prefix) && !n.slice(prefix.length).includes(':')).map((n) => n.slice(prefix.length));
  const best = closestName(segment, sameScope, 2);
  return best ? { name: prefix + best.name, distance: best.distance } : undefined;
}

/**
 * "Did you mean" for a marker controller-gen ignores: a known name followed by stray text (`+optional.` →
 * `+optional`; `+…:UniqueItems:true` → `+…:UniqueItems=true`), else a close or containing name.
 */
function ignoredMarkerHint(fullName: string, names: ReadonlySet<string>): string | undefined {
  const known = [...names].filter((n) => fullName.startsWith(n) && fullName.length > n.length && !/[\p{L}\p{N}_-]/u.test(fullName[n.length]!));
  const longest = known.sort((a, b) => b.length - a.length)[0];
  if (longest) {
    const rest = fullName.slice(longest.length);
    const value = /^:([^:]+)$/.exec(rest);
    const definition = findMarkerDefinitions(longest)[0];
    return value && definition?.shape === 'value' ? `+${longest}=${value[1]}` : `+${longest}`;
  }
  const close = closestName(fullName, names);
  if (close) return `+${close.name}`;
  const colon = fullName.lastIndexOf(':');
  const segment = fullName.slice(colon + 1);
  if (segment.length < 4) return undefined;
  const prefix = fullName.slice(0, colon + 1);
  const containing = [...names].find((n) => n.startsWith(prefix) && n.slice(prefix.length).includes(segment));
  return containing ? `+${containing}` : undefined;
}

/** The marker text up to (not including) its `=`: what "unknown marker" quotes. */
function equalsPart(text: string): string {
  const equals = text.indexOf('=');
  return equals < 0 ? text : text.slice(0, equals);
}

function withArgumentSuggestion(error: string, definition: MarkerDefinition): string {
  const unknown = /^unknown argument "([^"]*)"/.exec(error);
  if (!unknown) return error;
  const best = closestName(unknown[1], definition.args.map((a) => a.name));
  return best ? `${error} (did you mean "${best.name}"?)` : error;
}
