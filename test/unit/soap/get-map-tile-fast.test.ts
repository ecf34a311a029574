import { describe, expect, it } from 'vitest';
import { SOAP_ENVELOPE_NS } from '../../../soap/fault.js';
import { getMapTileResponse, readGetMapTile } from '../../../soap/get-map-tile-fast.js';
import { GEO_NAMESPACE } from '../../../soap/schema/model.js';
import { decodeRequest } from '../../../soap/xml-decoder.js';
import { encodeResponse } from '../../../soap/xml-encoder.js';

/** What the full path reads from an envelope: the request, or the fault's message. */
function fullRead(raw: string): { request?: unknown; fault?: string } {
  try {
    const decoded = decodeRequest(raw);
    return decoded.operation === 'GetMapTile' ? { request: decoded.request } : { fault: decoded.operation };
  } catch (error) {
    return { fault: (error as Error).message };
  }
}

interface Shape {
  decl: string;
  p: string; // envelope prefix with colon, or ''
  envAttrs: string;
  header: string;
  q: string;
  opAttrs: string;
  ws: string;
  format: string | undefined;
  numbers: [string, string, string];
}

function envelope(s: Shape): string {
  const w = s.ws;
  const fmt = s.format === undefined ? '' : `<Format>${s.format}</Format>${w}`;
  return (
    `${s.decl}<${s.p}Envelope${s.envAttrs}>${w}${s.header}${w}<${s.p}Body>${w}` +
    `<${s.q}GetMapTile${s.opAttrs}>${w}<MapName>Layers</MapName>${w}<Level>${s.numbers[0]}</Level>${w}` +
    `<Row>${s.numbers[1]}</Row>${w}<Column>${s.numbers[2]}</Column>${w}${fmt}` +
    `</${s.q}GetMapTile>${w}</${s.p}Body>${w}</${s.p}Envelope>`
  );
}

/** Every combination of the ways toolkits write this envelope. */
function corpus(): string[] {
  const out: string[] = [];
  const decls = [
    '',
    '<?xml version="1.0" encoding="utf-8"?>',
    "<?xml version='1.0' encoding='UTF-8'?>\n",
    '<?xml version="1.0"?>',
  ];
  const envelopes: [string, string][] = [
    ['soap:', ` xmlns:soap="${SOAP_ENVELOPE_NS}"`],
    ['SOAP-ENV:', ` xmlns:SOAP-ENV="${SOAP_ENVELOPE_NS}" xmlns:xsd="http://www.w3.org/2001/XMLSchema"`],
    ['s:', `\n  xmlns:s='${SOAP_ENVELOPE_NS}'\txmlns:tns="${GEO_NAMESPACE}"`],
    ['', ` xmlns="${SOAP_ENVELOPE_NS}"`],
    ['soap:', ` xmlns:soap="http://www.w3.org/2003/05/soap-envelope"`], // SOAP 1.2: VersionMismatch
    ['soap:', ''], // unbound prefix
  ];
  const headers = (p: string) => ['', `<${p}Header/>`, `<${p}Header></${p}Header>`];
  const ops: [string, string][] = [
    ['tns:', ''],
    ['tns:', ` xmlns:tns="${GEO_NAMESPACE}"`],
    ['', ` xmlns="${GEO_NAMESPACE}"`],
    ['ns1:', ` xmlns:ns1="${GEO_NAMESPACE}"`],
  ];
  for (const decl of decls)
    for (const [p, envAttrs] of envelopes)
      for (const header of headers(p))
        for (const [q, opAttrs] of ops)
          for (const ws of ['', '\n  ', ' \t'])
            for (const format of [undefined, 'png', ''])
              out.push(
                envelope({ decl, p, envAttrs, header, q, opAttrs, ws, format, numbers: ['14', '5', '0008'] }),
              );
  return out;
}

const base: Shape = {
  decl: '<?xml version="1.0" encoding="utf-8"?>',
  p: 'soap:',
  envAttrs: ` xmlns:soap="${SOAP_ENVELOPE_NS}"`,
  header: '',
  q: 'tns:',
  opAttrs: ` xmlns:tns="${GEO_NAMESPACE}"`,
  ws: '',
  format: 'png',
  numbers: ['4', '5', '8'],
};
const plain = envelope(base);

/** Envelopes the fast path must leave to the full parser (some valid, most faults). */
const odd: string[] = [
  plain.replace('<Level>', '<!-- c --><Level>'),
  plain.replace('<MapName>Layers', '<MapName><![CDATA[Layers]]>'),
  plain.replace('<MapName>Layers', '<MapName>&#76;ayers'),
  plain.replace('<Level>4<', '<Level> 4 <'),
  plain.replace('<Level>4<', '<Level>+4<'),
  plain.replace('<Level>4<', '<Level>-4<'),
  plain.replace('<Level>4<', '<Level>99999999999<'),
  plain.replace('<Row>5</Row><Column>8</Column>', '<Column>8</Column><Row>5</Row>'),
  plain.replace('<Format>png</Format>', '<Format>png</Format><Extra>1</Extra>'),
  plain.replace('<Level>', '<Level xsi:nil="false">'),
  plain.replace('<soap:Body>', '<soap:Header><h mustUnderstand="1"/></soap:Header><soap:Body>'),
  plain.replace('<soap:Body>', '<soap:Header><h/></soap:Header><soap:Body>'),
  plain.replace('?>', '?><!DOCTYPE x [<!ENTITY e "x">]>'),
  plain.replace('</tns:GetMapTile>', '</ns1:GetMapTile>'),
  plain.replace('<soap:Envelope', '<soap:ENVELOPE').replace('</soap:Envelope', '</soap:ENVELOPE'),
  plain.replace('</soap:Body>', '</soap:Body><soap:Body/>'),
  plain.replace('<tns:GetMapTile', '<tns:GetMapTile soap:encodingStyle="x"'),
  plain.replace(`xmlns:soap="${SOAP_ENVELOPE_NS}"`, `xmlns:soap="${SOAP_ENVELOPE_NS}" xmlns:soap="x"`),
  plain.replace('<tns:GetMapTile', '<tns:GetMapTiles').replace('</tns:GetMapTile>', '</tns:GetMapTiles>'),
  plain.replace('<MapName>Layers</MapName>', ''),
  plain.replace('<Level>4</Level>', ''),
  plain.replace('<MapName>Layers', '<MapName>lay<b/>ers'),
  `\uFEFF${plain}`,
  ` ${plain}`,
  `${plain}<x/>`,
  `${plain}trailing`,
  plain.replace('<MapName>Layers</MapName>', '<tns:MapName>Layers</tns:MapName>'),
  plain.slice(0, -5),
  plain.replace('<Format>png</Format>', '<Format>png</Format><Format>jpg</Format>'),
  plain.replace('encoding="utf-8"', 'encoding="iso-8859-1"'),
  plain.replace('version="1.0"', 'version="1.1"'),
];

describe('readGetMapTile', () => {
  it('reads exactly what the full decoder reads, over every toolkit shape, or leaves it to the full path', () => {
    let fast = 0;
    let faults = 0;
    // A map name the handler refuses is still read as the decoder reads it (the handler then faults).
    const refused = [plain.replace('<MapName>Layers', '<MapName> layers'), plain.replace('Layers', '')];
    for (const raw of [...corpus(), ...odd, ...refused]) {
      const quick = readGetMapTile(raw);
      const full = fullRead(raw);
      if (quick === undefined) continue;
      fast++;
      if (full.request === undefined) faults++;
      expect({ raw, request: quick }).toEqual({ raw, request: full.request });
    }
    expect(faults).toBe(0);
    // Plain envelopes take the fast path: 4 declarations × 4 SOAP 1.1 envelopes × 3 headers × 4 operation
    // shapes × 3 spacings × 3 formats.
    expect(fast).toBe(4 * 4 * 3 * 4 * 3 * 3 + refused.length);
  });

  it('leaves every odd envelope to the full path', () => {
    for (const raw of odd) expect({ raw, fast: readGetMapTile(raw) }).toEqual({ raw, fast: undefined });
  });

  it('reads the numbers and the optional format', () => {
    expect(readGetMapTile(envelope({ ...base, numbers: ['014', '0', '16383'], format: undefined }))).toEqual({
      MapName: 'Layers',
      Level: 14,
      Row: 0,
      Column: 16383,
    });
    expect(readGetMapTile(plain)).toEqual({ MapName: 'Layers', Level: 4, Row: 5, Column: 8, Format: 'png' });
  });
});

describe('getMapTileResponse', () => {
  it('writes the bytes encodeResponse writes, for every length modulo 3 and a real-sized tile', () => {
    let seed = 7;
    const byte = () => {
      seed = (seed * 48271) % 2147483647;
      return seed & 255;
    };
    for (const n of [0, 1, 2, 3, 4, 5, 255, 256, 257, 7_991]) {
      const tile = Uint8Array.from({ length: n }, byte);
      const expected = Buffer.from(encodeResponse('GetMapTile', tile), 'utf8');
      expect(getMapTileResponse(tile).equals(expected)).toBe(true);
    }
  });

  it('holds the tile as standard base64 in Result', () => {
    const out = getMapTileResponse(Uint8Array.from([0xff, 0xfe, 0x00, 0x10])).toString('latin1');
    expect(out).toContain('<Result>//4AEA==</Result>');
    expect(out.startsWith('<?xml version="1.0" encoding="utf-8"?><soap:Envelope')).toBe(true);
  });
});
