#!/usr/bin/env node
// Builds src/cluster/protobuf/kubernetes-descriptors.generated.ts: the protobuf message tables of every
// Kubernetes API type, for decoding `application/vnd.kubernetes.protobuf` request bodies into JSON.
//
// Source: the kubectl 1.32 binary. kubectl links k8s.io/api and k8s.io/apimachinery, whose gogo-protobuf
// generated.pb.go files embed each generated.proto's FileDescriptorProto gzipped (`fileDescriptor_<hash> =
// []byte{0x1f, 0x8b, ...}`), with the gogoproto options of the generation-time .proto: `nullable=false`
// (a non-pointer Go field) and `customname` (the Go field name). The script finds every gzip stream in the
// binary, inflates it, parses the descriptor and keeps the k8s.io packages.
// What a descriptor does not say is read from the Go types compiled into the same binary (the runtime type
// data reflection uses, reached from the ELF .typelink section): each message's Go struct (by go_package
// and name) and, for each proto field, the struct field whose `protobuf:"…,<number>,…"` tag has its number:
// whether it is a pointer, its json tag (JSON name — not always the proto name: uID → uid, aPIGroup →
// apiGroup —, omitempty, ",inline" on embedded structs such as VolumeSource in Volume). Messages with no Go
// struct are named slice types (ExtraValue, Verbs: JSON is the array); fields without a json tag (the
// special types' own fields) count as omitempty.
// k8s.io/apiextensions-apiserver and k8s.io/kube-aggregator are not linked into kubectl: CustomResourceDefinition
// and APIService have no tables (the server answers their protobuf bodies 415).
//
// Usage: node scripts/extract-protobuf-descriptors.mjs [--check] [/usr/lib/google-cloud-sdk/bin/kubectl.1.32]
// (--check writes nothing and exits 1 when the checked-in module differs from what the binary gives)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(repoRoot, 'src/cluster/protobuf/kubernetes-descriptors.generated.ts');
const check = process.argv.includes('--check');
const binary = process.argv.slice(2).find((a) => a !== '--check') ?? '/usr/lib/google-cloud-sdk/bin/kubectl.1.32';
const version = /Client Version: (v[0-9.]+)/.exec(execFileSync(binary, ['version', '--client'], { encoding: 'utf8' }))?.[1];
if (!version?.startsWith('v1.32.')) throw new Error(`${binary} is kubectl ${version}, not 1.32`);

// ---- protobuf wire format, enough for descriptor.proto ----

function readVarint(buf, pos) {
  let value = 0n;
  for (let shift = 0n; ; shift += 7n) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const b = buf[pos++];
    value |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [value, pos];
  }
}

/** Fields of one message: [{ number, varint } | { number, bytes }]. */
function fieldsOf(buf) {
  const out = [];
  for (let pos = 0; pos < buf.length; ) {
    const [key, afterKey] = readVarint(buf, pos);
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [varint, next] = readVarint(buf, afterKey);
      out.push({ number, varint });
      pos = next;
    } else if (wire === 2) {
      const [len, start] = readVarint(buf, afterKey);
      out.push({ number, bytes: buf.subarray(start, start + Number(len)) });
      pos = start + Number(len);
    } else if (wire === 1) pos = afterKey + 8;
    else if (wire === 5) pos = afterKey + 4;
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}

const text = (fields, n) => fields.find((f) => f.number === n)?.bytes?.toString('utf8');
const number = (fields, n) => fields.find((f) => f.number === n)?.varint;
const all = (fields, n) => fields.filter((f) => f.number === n).map((f) => fieldsOf(f.bytes));

// gogoproto extension numbers on FieldOptions
const GOGO_NULLABLE = 65001;
const GOGO_CUSTOMNAME = 65004;
// google.protobuf.FieldDescriptorProto.Type → the decoder's scalar names
const scalarTypes = { 1: 'double', 2: 'float', 3: 'int64', 4: 'uint64', 5: 'int32', 8: 'bool', 9: 'string', 12: 'bytes', 13: 'uint32', 17: 'sint32', 18: 'sint64' };

// ---- descriptors from the binary's gzip streams ----

const image = fs.readFileSync(binary);
const gzipMagic = Buffer.from([0x1f, 0x8b, 0x08]);
const files = [];
for (let at = image.indexOf(gzipMagic); at >= 0; at = image.indexOf(gzipMagic, at + 1)) {
  if (image[at + 3] !== 0) continue; // Go's gzip writer: a plain 10-byte header (no name, comment or extra)
  let descriptor;
  try {
    // one gzip member only: the next descriptor's stream often follows directly
    descriptor = fieldsOf(inflateRawSync(image.subarray(at + 10, at + 8_000_000)));
  } catch {
    continue; // not a gzip stream, or not a descriptor
  }
  const pkg = text(descriptor, 2);
  if (pkg?.startsWith('k8s.io.')) files.push({ name: text(descriptor, 1), pkg, goPackage: text(all(descriptor, 8)[0] ?? [], 11), messages: all(descriptor, 4) });
}
if (files.length < 50) throw new Error(`only ${files.length} k8s.io descriptors found in ${binary}`);

// ---- Go struct types from the binary's reflection data ----

/** Section name → { addr, offset, size } from the ELF section headers. */
function elfSections() {
  const shoff = Number(image.readBigUInt64LE(0x28));
  const entsize = image.readUInt16LE(0x3a);
  const count = image.readUInt16LE(0x3c);
  const header = (i) => shoff + i * entsize;
  const names = Number(image.readBigUInt64LE(header(image.readUInt16LE(0x3e)) + 24));
  const sections = {};
  for (let i = 0; i < count; i++) {
    const h = header(i);
    const nameStart = names + image.readUInt32LE(h);
    const name = image.toString('latin1', nameStart, image.indexOf(0, nameStart));
    sections[name] = { addr: Number(image.readBigUInt64LE(h + 16)), offset: Number(image.readBigUInt64LE(h + 24)), size: Number(image.readBigUInt64LE(h + 32)) };
  }
  return sections;
}

/**
 * Every struct type reachable from the binary's type links (Go's abi.Type layout on amd64, go1.21+), as
 * `<go package>.<type name>` → [{ name, tag, embedded, pointer }]. Types live in .rodata, which begins
 * with runtime.types (the base of type and name offsets).
 */
function goStructs() {
  const { '.rodata': rodata, '.typelink': typelink } = elfSections();
  const fileOffset = (addr) => addr - rodata.addr + rodata.offset;
  const pointerAt = (o) => fileOffset(Number(image.readBigUInt64LE(o)));
  const varintAt = (o) => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = image[o++];
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return [value, o];
    }
  };
  const nameAt = (o) => {
    const flags = image[o];
    const [len, start] = varintAt(o + 1);
    const name = image.toString('latin1', start, start + len);
    let tag = '';
    if (flags & 2) {
      const [tagLen, tagStart] = varintAt(start + len);
      tag = image.toString('latin1', tagStart, tagStart + tagLen);
    }
    return { name, tag, embedded: (flags & 8) !== 0 };
  };
  const KIND_MAP = 21, KIND_PTR = 22, KIND_SLICE = 23, KIND_STRUCT = 25, KIND_ARRAY = 17, KIND_CHAN = 18;
  const structs = new Map();
  const visited = new Set();
  const visit = (o) => {
    if (visited.has(o)) return;
    visited.add(o);
    const kind = image[o + 23] & 0x1f;
    if (kind === KIND_PTR || kind === KIND_SLICE || kind === KIND_ARRAY || kind === KIND_CHAN) visit(pointerAt(o + 48));
    if (kind === KIND_MAP) [48, 56].forEach((at) => visit(pointerAt(o + at)));
    if (kind !== KIND_STRUCT || (image[o + 20] & 1) === 0) return; // only named structs (uncommon type follows)
    const fieldsAt = pointerAt(o + 56);
    const fields = [];
    for (let i = 0; i < Number(image.readBigUInt64LE(o + 64)); i++) {
      const type = pointerAt(fieldsAt + i * 24 + 8);
      fields.push({ ...nameAt(pointerAt(fieldsAt + i * 24)), pointer: (image[type + 23] & 0x1f) === KIND_PTR });
      visit(type);
    }
    let typeName = nameAt(rodata.offset + image.readInt32LE(o + 40)).name;
    if (image[o + 20] & 2) typeName = typeName.slice(1); // TFlagExtraStar
    const pkg = nameAt(rodata.offset + image.readInt32LE(o + 80)).name;
    structs.set(`${pkg}.${typeName.slice(typeName.lastIndexOf('.') + 1)}`, fields);
  };
  for (let at = 0; at < typelink.size; at += 4) visit(rodata.offset + image.readInt32LE(typelink.offset + at));
  return structs;
}
const structs = goStructs();

// ---- message tables ----

const FLAG_REPEATED = 1;
const FLAG_POINTER = 2;
const FLAG_OMITEMPTY = 4;
const FLAG_INLINE = 8;
const stats = { fields: 0, untagged: [], noStruct: [], skipped: [], renamed: [] };
const messages = {};
const mapEntries = new Map();
const listTypes = [];

for (const file of files) {
  for (const message of file.messages) {
    for (const nested of all(message, 3)) {
      const options = all(nested, 7)[0];
      if (!options || number(options, 7) !== 1n) throw new Error(`${file.pkg}.${text(message, 1)}: nested message ${text(nested, 1)} is not a map entry`);
      const [key, value] = all(nested, 2);
      if (number(key, 5) !== 9n) throw new Error(`map ${text(nested, 1)} has a non-string key`);
      mapEntries.set(`.${file.pkg}.${text(message, 1)}.${text(nested, 1)}`, value);
    }
  }
}

/** The decoder's type of a field (scalar name, or the message's full name without the leading dot). */
function typeOf(field, where) {
  const type = Number(number(field, 5));
  if (type === 11) return text(field, 6).slice(1);
  if (!scalarTypes[type]) throw new Error(`${where}: unsupported field type ${type}`);
  return scalarTypes[type];
}

/** The Go struct field a proto field is generated from: the one whose protobuf tag has its number. */
function goFieldOf(goStruct, fieldNumber) {
  return goStruct?.find((f) => /protobuf:"[a-z0-9]+,([0-9]+),/.exec(f.tag)?.[1] === String(fieldNumber));
}

function fieldEntry(owner, goStruct, field) {
  const protoName = text(field, 1);
  const fieldNumber = Number(number(field, 3));
  const where = `${owner}.${protoName}`;
  const options = all(field, 8)[0] ?? [];
  const goField = goFieldOf(goStruct, fieldNumber);
  const goName = goField?.name ?? text(options, GOGO_CUSTOMNAME) ?? protoName[0].toUpperCase() + protoName.slice(1);
  const typeName = text(field, 6);
  let flags = 0;
  const entry = [protoName, undefined, 0];
  if (typeName && mapEntries.has(typeName)) {
    entry[1] = 'map';
    entry[3] = typeOf(mapEntries.get(typeName), where);
  } else {
    entry[1] = typeOf(field, where);
    if (Number(number(field, 4)) === 3) flags |= FLAG_REPEATED;
  }
  if (goField ? goField.pointer : number(options, GOGO_NULLABLE) !== 0n) flags |= FLAG_POINTER;
  const json = /json:"([^"]*)"/.exec(goField?.tag ?? '')?.[1];
  if (json === undefined) stats.untagged.push(where);
  const [jsonName, ...jsonOptions] = (json ?? `${protoName},omitempty`).split(',');
  if (jsonOptions.includes('omitempty')) flags |= FLAG_OMITEMPTY;
  if (jsonOptions.includes('inline') && goField.embedded) flags |= FLAG_INLINE;
  else if (jsonName === '-') stats.skipped.push(where);
  else if (jsonName !== protoName) {
    entry[0] = jsonName;
    stats.renamed.push(`${where} → ${jsonName}`);
  }
  entry[2] = flags;
  if (goName !== entry[0][0].toUpperCase() + entry[0].slice(1)) entry[4] = goName;
  stats.fields++;
  return [fieldNumber, ...entry];
}

for (const file of files) {
  for (const message of file.messages) {
    const name = `${file.pkg}.${text(message, 1)}`;
    const goStruct = structs.get(`${file.goPackage}.${text(message, 1)}`);
    if (!goStruct) stats.noStruct.push(name);
    const fields = all(message, 2).map((field) => fieldEntry(name, goStruct, field));
    // a named slice type (ExtraValue []string, Verbs []string): a message with one `repeated items = 1`
    if (!goStruct && fields.length === 1 && fields[0][0] === 1 && fields[0][1] === 'items' && fields[0][3] & FLAG_REPEATED) listTypes.push(name);
    messages[name] = fields;
  }
}

// ---- output ----

const sortedNames = Object.keys(messages).sort();
// a field with a goName but no map value type has a hole there, written as null
// one JSON text per message, parsed at its first use: literals would cost every importer their parse
const lines = sortedNames.map((name) => `  ${JSON.stringify(name)}: ${JSON.stringify(JSON.stringify(messages[name]))},`);
const source = `/**
 * GENERATED by scripts/extract-protobuf-descriptors.mjs from kubectl ${version} - do not edit by hand (ASCII only:
 * a one-byte file reads and compiles faster in each test file importing it).
 * The protobuf messages of the Kubernetes API (${files.length} generated.proto files of k8s.io/api and
 * k8s.io/apimachinery, as embedded gzipped in the binary), keyed by full message name, with what the Go
 * struct behind each message says (reflection data in the same binary). Each field, in declaration order:
 * [number, jsonName, type, flags, mapValueType?, goName?]; type is a scalar, 'map' (string keys) or a
 * message name; flags: 1 repeated, 2 a pointer in Go, 4 omitempty in its json tag, 8 json ",inline".
 * goName (named in decoding errors) is given where it is not the capitalised JSON name.
 * One JSON text per message, parsed on first use (messageFields): most importers decode no protobuf.
 */
export type DescriptorField = [number: number, jsonName: string, type: string, flags: number, mapValueType?: string | null, goName?: string];

export const FIELD_REPEATED = ${FLAG_REPEATED};
export const FIELD_POINTER = ${FLAG_POINTER};
export const FIELD_OMITEMPTY = ${FLAG_OMITEMPTY};
export const FIELD_INLINE = ${FLAG_INLINE};

/** Messages that stand for a named Go slice type (ExtraValue, a []string): JSON is the items array. */
export const listMessages: string[] = ${JSON.stringify(listTypes.sort())};

/** Each message's fields as JSON text, by full message name. */
export const kubernetesMessageSources: Record<string, string> = {
${lines.join('\n')}
};

const parsedMessages = new Map<string, DescriptorField[]>();

/** The fields of a message, in declaration order (undefined for a name with no table). */
export function messageFields(messageName: string): DescriptorField[] | undefined {
  let fields = parsedMessages.get(messageName);
  if (fields === undefined && Object.hasOwn(kubernetesMessageSources, messageName)) {
    fields = JSON.parse(kubernetesMessageSources[messageName]!) as DescriptorField[];
    parsedMessages.set(messageName, fields);
  }
  return fields;
}
`;
if (check) {
  const current = fs.existsSync(output) ? fs.readFileSync(output, 'utf8') : '';
  process.stdout.write(current === source ? 'up to date\n' : `${path.relative(repoRoot, output)} differs from what kubectl ${version} gives\n`);
  process.exit(current === source ? 0 : 1);
}
fs.writeFileSync(output, source);
process.stderr.write(
  `${files.length} files, ${sortedNames.length} messages, ${stats.fields} fields → ${path.relative(repoRoot, output)} (${source.length} bytes)\n` +
    `no Go struct found: ${stats.noStruct.join(', ')}\n` +
    `no json tag (taken as omitempty): ${stats.untagged.join(', ')}\n` +
    `json:"-": ${stats.skipped.join(', ')}\n` +
    `json name differs from proto name: ${stats.renamed.join(', ')}\n`,
);
