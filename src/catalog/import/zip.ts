import { crc32, inflateRawSync } from "node:zlib";

/**
 * A reader for plain zip archives such as the USDA's sr28asc.zip: the central directory at the end lists
 * every entry, each stored or deflated. Enough for that one file, so no dependency: no zip64, no
 * encryption, no other compression methods (each is refused by name). Sizes come from the central
 * directory, which stays right even when the local headers defer them to a data descriptor.
 */

export class ZipError extends Error {}

export interface ZipEntry {
  /** The name as stored, with any folders (`sr28/FOOD_DES.txt`). */
  readonly name: string;
  /** The entry's bytes, inflated and checked against its CRC-32 and size. */
  read(): Uint8Array;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;

export function readZip(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new ZipError("zip64 archives are not supported");
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL_FILE_HEADER) throw new ZipError("corrupt central directory");
    const header = {
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    };
    const nameLength = view.getUint16(at + 28, true);
    // Names in sr28asc.zip are ASCII; latin1 keeps any other byte visible rather than failing.
    const name = Buffer.from(bytes.subarray(at + 46, at + 46 + nameLength)).toString(header.flags & 0x800 ? "utf8" : "latin1");
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    entries.push({ name, read: () => extract(bytes, view, name, header) });
  }
  return entries;
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535, so it starts within the last 65,557 bytes.
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new ZipError("not a zip file (no end-of-central-directory record)");
}

interface EntryHeader {
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function extract(bytes: Uint8Array, view: DataView, name: string, header: EntryHeader): Uint8Array {
  const local = header.localOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_FILE_HEADER) throw new ZipError(`${name}: corrupt local header`);
  if (header.flags & 0x1) throw new ZipError(`${name}: encrypted entries are not supported`);
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + header.compressedSize > bytes.length) throw new ZipError(`${name}: truncated`);
  const data = bytes.subarray(start, start + header.compressedSize);
  let out: Uint8Array;
  if (header.method === STORED) out = data;
  else if (header.method === DEFLATE) {
    try {
      out = inflateRawSync(data);
    } catch (error) {
      throw new ZipError(`${name}: cannot be inflated (${(error as Error).message})`);
    }
  } else throw new ZipError(`${name}: compression method ${header.method} is not supported (only stored and deflate)`);
  if (out.length !== header.size || crc32(out) !== header.crc) throw new ZipError(`${name}: damaged (size or CRC-32 differs from the zip's directory)`);
  return out;
}
