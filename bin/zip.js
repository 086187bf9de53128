// A zip archive written with Node's own zlib (raw deflate) and a table CRC-32: no dependency.
// Deterministic: entries in the order given, every one dated 1980-01-01 00:00 (the earliest
// DOS date), no extra fields, no comment — the same files give the same bytes.
//
// Layout (APPNOTE 6.3.x, no zip64: at most 65,535 entries and 4 GiB): per entry a local header
// + name + data, then the central directory (one header per entry) and its end record.
import { deflateRawSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, the zip format's) of `bytes`. */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const DOS_TIME = 0; // 00:00:00
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const UTF8_NAMES = 0x0800; // general purpose flag bit 11: names are UTF-8
const STORE = 0;
const DEFLATE = 8;

// The fields the local header and the central directory's share, in the same order, from `at`:
// flags, method, time, date, CRC-32, compressed size, size, name length.
function writeEntry(buffer, at, { method, crc, compressed, size, nameLength }) {
  buffer.writeUInt16LE(UTF8_NAMES, at);
  buffer.writeUInt16LE(method, at + 2);
  buffer.writeUInt16LE(DOS_TIME, at + 4);
  buffer.writeUInt16LE(DOS_DATE, at + 6);
  buffer.writeUInt32LE(crc, at + 8);
  buffer.writeUInt32LE(compressed, at + 12);
  buffer.writeUInt32LE(size, at + 16);
  buffer.writeUInt16LE(nameLength, at + 20);
}

/**
 * The bytes of a zip of `entries` ([{ name, data }], name with '/' separators, data a Buffer or
 * Uint8Array). Data that deflate does not shrink is stored as it is.
 */
export function zip(entries) {
  if (entries.length > 0xffff) throw new RangeError(`a zip without zip64 holds at most 65,535 entries, not ${entries.length}`);
  const parts = [];
  const central = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const bytes = Buffer.from(data.buffer ?? data, data.byteOffset ?? 0, data.byteLength ?? data.length);
    const nameBytes = Buffer.from(name, 'utf8');
    const deflated = deflateRawSync(bytes, { level: 9 });
    const method = deflated.length < bytes.length ? DEFLATE : STORE;
    const body = method === DEFLATE ? deflated : bytes;
    const crc = crc32(bytes);
    const entry = { method, crc, compressed: body.length, size: bytes.length, nameLength: nameBytes.length };
    const local = Buffer.alloc(30); // extra field: none
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    writeEntry(local, 6, entry);
    parts.push(local, nameBytes, body);

    const header = Buffer.alloc(46); // extra, comment, disk, internal and external attributes: 0
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by: MS-DOS, 2.0
    header.writeUInt16LE(20, 6);
    writeEntry(header, 8, entry);
    header.writeUInt32LE(offset, 42);
    central.push(header, nameBytes);
    offset += local.length + nameBytes.length + body.length;
    if (offset > 0xffffffff) throw new RangeError('a zip without zip64 holds at most 4 GiB');
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
