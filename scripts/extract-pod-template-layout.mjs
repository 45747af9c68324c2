#!/usr/bin/env node
// Builds src/cluster/controllers/pod-template-layout.generated.ts: the Go layout of k8s.io/api/core/v1
// PodTemplateSpec and of every type it reaches (struct fields in declaration order with their JSON names,
// element, key and basic kinds, and the type names reflect prints), read from the runtime type
// information compiled into kubectl 1.32 (a Go binary keeps it for reflection). The deployment controller's
// pod-template-hash is FNV over go-spew's print of that struct, so the field order and type names must be
// exactly 1.32's.
//
// Usage: node scripts/extract-pod-template-layout.mjs /usr/lib/google-cloud-sdk/bin/kubectl.1.32
// Reads the ELF sections .rodata (runtime.types starts there) and .typelink; type layout as Go 1.22/1.23's
// internal/abi: Type is 48 bytes (Str NameOff at 40, TFlag at 20, Kind at 23), PtrType/SliceType/ArrayType
// elem at 48, MapType key/elem at 48/56, StructType fields slice at 56 (24-byte fields: name, type,
// offset) and, for a named struct, the uncommon type's pkgPath NameOff at 80.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binaryPath = process.argv[2];
if (!binaryPath) {
  console.error('usage: node scripts/extract-pod-template-layout.mjs <kubectl 1.32 binary>');
  process.exit(2);
}
const bin = fs.readFileSync(binaryPath);
const shoff = Number(bin.readBigUInt64LE(0x28));
const shentsize = bin.readUInt16LE(0x3a);
const shnum = bin.readUInt16LE(0x3c);
const shstrndx = bin.readUInt16LE(0x3e);
const sections = [];
for (let i = 0; i < shnum; i++) {
  const o = shoff + i * shentsize;
  sections.push({ nameOff: bin.readUInt32LE(o), addr: Number(bin.readBigUInt64LE(o + 0x10)), off: Number(bin.readBigUInt64LE(o + 0x18)), size: Number(bin.readBigUInt64LE(o + 0x20)) });
}
for (const s of sections) {
  let e = sections[shstrndx].off + s.nameOff;
  let n = '';
  while (bin[e]) n += String.fromCharCode(bin[e++]);
  s.name = n;
}
const section = (name) => sections.find((s) => s.name === name);
const fileOffset = (addr) => {
  const s = sections.find((x) => x.addr && addr >= x.addr && addr < x.addr + x.size);
  if (!s) throw new Error(`address 0x${addr.toString(16)} is in no section`);
  return addr - s.addr + s.off;
};
const typesBase = section('.rodata').addr;
const typelink = section('.typelink');
const u64 = (addr) => Number(bin.readBigUInt64LE(fileOffset(addr)));

/** An abi.Name: flags byte, varint length, bytes, then (flag 2) a varint-length tag. */
function readName(addr) {
  const o = fileOffset(addr);
  const flags = bin[o];
  const varint = (at) => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = bin[at++];
      value |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return [value, at];
      shift += 7;
    }
  };
  const [len, start] = varint(o + 1);
  const name = bin.toString('utf8', start, start + len);
  let tag = '';
  if (flags & 2) {
    const [tagLen, tagStart] = varint(start + len);
    tag = bin.toString('utf8', tagStart, tagStart + tagLen);
  }
  return { name, tag, embedded: Boolean(flags & 8) };
}

const kindNames = { 1: 'bool', 2: 'int', 3: 'int', 4: 'int', 5: 'int', 6: 'int', 7: 'uint', 8: 'uint', 9: 'uint', 10: 'uint', 11: 'uint', 12: 'uint', 13: 'float32', 14: 'float64', 24: 'string', 20: 'interface' };

function typeString(addr) {
  const o = fileOffset(addr);
  const tflag = bin[o + 20];
  const s = readName(typesBase + bin.readInt32LE(o + 40)).name;
  return tflag & 2 ? s.slice(1) : s;
}

const layouts = {};
const addressOf = {};
function visit(addr) {
  const name = typeString(addr);
  if (addressOf[name] !== undefined) {
    if (addressOf[name] !== addr) throw new Error(`two types print as ${name}`);
    return name;
  }
  addressOf[name] = addr;
  const o = fileOffset(addr);
  const kind = bin[o + 23] & 0x1f;
  if (kind === 22) layouts[name] = { k: 'ptr', elem: null };
  else if (kind === 23) layouts[name] = { k: 'slice', elem: null };
  else if (kind === 17) layouts[name] = { k: 'array', elem: null, len: u64(addr + 64) };
  else if (kind === 21) layouts[name] = { k: 'map', key: null, elem: null };
  else if (kind === 25) layouts[name] = { k: 'struct', fields: [] };
  else if (kindNames[kind]) layouts[name] = { k: kindNames[kind] };
  else throw new Error(`${name}: unhandled kind ${kind}`);
  const layout = layouts[name];
  if (kind === 22 || kind === 23 || kind === 17) layout.elem = visit(u64(addr + 48));
  if (kind === 21) {
    layout.key = visit(u64(addr + 48));
    layout.elem = visit(u64(addr + 56));
  }
  if (kind === 25) {
    const fieldsAt = u64(addr + 56);
    const count = u64(addr + 64);
    for (let i = 0; i < count; i++) {
      const f = fieldsAt + i * 24;
      const fieldName = readName(u64(f));
      const json = /json:"([^"]*)"/.exec(fieldName.tag)?.[1]?.split(',')[0] ?? '';
      layout.fields.push([fieldName.name, json === '-' ? '' : json, visit(u64(f + 8)), fieldName.embedded ? 1 : 0]);
    }
  }
  return name;
}

let root;
for (let p = typelink.off; p < typelink.off + typelink.size; p += 4) {
  const addr = typesBase + bin.readInt32LE(p);
  if (typeString(addr) !== '*v1.PodTemplateSpec') continue;
  const elem = u64(addr + 48);
  // a named struct's package path is in its uncommon type, right after the StructType (80 bytes)
  const pkgPath = bin[fileOffset(elem) + 20] & 1 ? readName(typesBase + bin.readInt32LE(fileOffset(elem + 80))).name : '';
  if (pkgPath === 'k8s.io/api/core/v1') root = elem;
}
if (!root) throw new Error('k8s.io/api/core/v1.PodTemplateSpec not found in the binary');
visit(root);

const out = path.join(repoRoot, 'src/cluster/controllers/pod-template-layout.generated.ts');
const lines = Object.keys(layouts)
  .sort()
  .map((name) => `  ${JSON.stringify(name)}: ${JSON.stringify(layouts[name])},`);
fs.writeFileSync(
  out,
  `// Generated by scripts/extract-pod-template-layout.mjs from kubectl 1.32's runtime type information. Do not edit.\n` +
    `// The Go layout of k8s.io/api/core/v1.PodTemplateSpec and every type it reaches: struct fields in\n` +
    `// declaration order as [Go name, JSON name, type, embedded], the names reflect prints for each type.\n` +
    `import type { GoTypeLayout } from './go-spew-template.js';\n\n` +
    `export const podTemplateLayout: Record<string, GoTypeLayout> = {\n${lines.join('\n')}\n};\n`,
);
console.log(`wrote ${path.relative(repoRoot, out)}: ${Object.keys(layouts).length} types`);
