import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { DEMO_ACCOUNTS } from './accounts.ts';
import { DemoApi } from './api.ts';

const SIDE = 96;
const NAVY = [31, 58, 95];
const SEA = [38, 166, 154];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The pixel at (x, y): a navy disc crossed by a sea-green wave, transparent outside. */
function pixel(x: number, y: number): number[] {
  const r = SIDE / 2;
  const dx = x - r + 0.5;
  const dy = y - r + 0.5;
  if (dx * dx + dy * dy > r * r) return [0, 0, 0, 0];
  const wave = r + 8 * Math.sin((x / SIDE) * Math.PI * 2);
  return [...(y > wave && y < wave + 14 ? SEA : NAVY), 255];
}

/** The demo operator's logo, drawn in code: a 96-pixel RGBA PNG. */
export function demoLogoPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIDE, 0);
  header.writeUInt32BE(SIDE, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < SIDE; y += 1) {
    rows.push(0);
    for (let x = 0; x < SIDE; x += 1) rows.push(...pixel(x, y));
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** The operator every demo document names: set by the Admin on Settings, before any document is made. */
export async function operatorIdentity(app: FastifyInstance): Promise<void> {
  const admin = await DemoApi.as(app, DEMO_ACCOUNTS[0].email);
  await admin.call('PUT', 'settings/operator-identity', {
    registered_name: 'Ocean Fast Ferries Inc.',
    trade_name: 'OceanJet',
    tin: '004-512-889',
    branch_code: '000',
    address: 'Pier 8, North Harbor, Tondo, Manila 1012',
    signatories: {
      raaf: { name: 'Teresita M. Villanueva', position: 'Chief Accountant' },
      report: { name: 'Teresita M. Villanueva', position: 'Chief Accountant' },
      notice_of_loss: { name: 'Ramon L. Aquino', position: 'Operations Manager' },
      transmittal_slip: { name: 'Lorna S. Bautista', position: 'Property Custodian' },
      count_certificate: { name: 'Lorna S. Bautista', position: 'Property Custodian' },
      unused_forms: { name: 'Teresita M. Villanueva', position: 'Chief Accountant' },
    },
  });
  await admin.call('PUT', 'settings/operator-identity/logo', { png: demoLogoPng().toString('base64') });
}
