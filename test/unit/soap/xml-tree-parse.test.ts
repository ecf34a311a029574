import { readdirSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { parseXmlTree, XmlReadError } from '../../../lib/xml/parse.js';
import type { SoapOperationName } from '../../../soap/operation-names.js';
import { SCHEMA } from '../../../soap/schema/registry.js';
import { encodeElements, encodeResponse } from '../../../soap/xml-encoder.js';
import { fixturePath, readFixture } from './fixtures.js';
import { sampleFields } from './sample-values.js';

/**
 * The tree reader against the parser that read messages before it (fast-xml-parser, with the options
 * the envelope reader used): on every message the product writes or is sent in the fixtures, and on
 * hand-written corner cases of XML, both give the same tree. Where they differ, the XML specification
 * says what is right and the expected values below are written from it.
 */
const oracle = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
  maxNestedTags: 10_000,
  jPath: false,
});

/** The oracle's document without its XML declaration, which is not an element. */
function oracleTree(xml: string): unknown {
  const document = oracle.parse(xml) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(document).filter(([key]) => !key.startsWith('?')));
}

const envelope = (operation: string, children: string) =>
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t"><soap:Body><tns:${operation}>${children}</tns:${operation}></soap:Body></soap:Envelope>`;

function productMessages(): [string, string][] {
  const messages: [string, string][] = [];
  for (const kind of ['first', 'last'] as const) {
    for (const op of SCHEMA.operations.values()) {
      const request = sampleFields(op.request, kind);
      messages.push([
        `${op.name} request (${kind})`,
        envelope(op.name, encodeElements(op.request, request, op.name)),
      ]);
      const fields = sampleFields(op.response, kind);
      const single = op.response.length === 1 && op.response[0].name === 'Result';
      messages.push([
        `${op.name} response (${kind})`,
        encodeResponse(op.name as SoapOperationName, single ? fields.Result : fields),
      ]);
    }
  }
  for (const folder of ['requests', 'responses']) {
    for (const name of readdirSync(fixturePath(folder))) {
      messages.push([`${folder}/${name}`, readFixture(`${folder}/${name}`)]);
    }
  }
  return messages;
}

const corners: [string, string][] = [
  ['whitespace between elements', '<a>\n  <b>1</b>\n  <b>2</b>\n</a>'],
  ['mixed text around a child', '<a>t1<b>h</b>t2</a>'],
  ['empty and self-closing elements', '<a><b/><c></c><d> </d></a>'],
  ['CDATA beside text', '<a>x<![CDATA[<y> & z]]>w</a>'],
  ['a comment inside text', '<a>x<!-- <b> -->y</a>'],
  ['predefined entities', '<a>&lt;&gt;&amp;&apos;&quot;</a>'],
  [
    'attributes with prefixes and quotes',
    `<p:a xmlns:p="urn:p" p:x="1" y='"q"' z="&lt;&amp;"><p:b p:c="2">t</p:b></p:a>`,
  ],
  ['a default namespace and xsi:nil', '<a xmlns="urn:d" xmlns:xsi="urn:xsi"><b xsi:nil="true"/></a>'],
  ['repeated children in order', '<a><b>1</b><c>x</c><b>2</b><b>3</b></a>'],
  ['CRLF line ends in text', '<a>l1\r\nl2\rl3</a>'],
  ['non-ASCII text and names', '<été><ü>ñ😀</ü></été>'],
  ['an XML declaration', '<?xml version="1.0" encoding="utf-8"?>\n<a><b>1</b></a>'],
];

describe('the SOAP message tree', () => {
  it.each(productMessages())('reads %s as the previous parser did', (_name, xml) => {
    expect(parseXmlTree(xml)).toEqual(oracleTree(xml));
  });

  it.each(corners)('reads %s as the previous parser did', (_name, xml) => {
    expect(parseXmlTree(xml)).toEqual(oracleTree(xml));
  });

  it('decodes character references, which the previous parser left as text', () => {
    // XML 1.0 §4.1: &#65; is "A", &#x42; is "B"; .NET writes a carriage return in text as &#xD;.
    expect(parseXmlTree('<a b="&#x31;&#50;">&#65;&#x42;&#xD;&#x1F600;</a>')).toEqual({
      a: [{ '@_b': '12', '#text': 'AB\r😀' }],
    });
  });

  it.each([
    ['a mismatched end tag', '<a><b></a></b>', 1],
    ['an undeclared entity', '<a>&nbsp;</a>', 1],
    ['a reference to a character XML forbids', '<a>&#0;</a>', 1],
    ['two root elements', '<a/><b/>', 1],
    ['text after the root', '<a/>\nx', 2],
    ['an unclosed element', '<a>\n<b>', 2],
    ['an attribute given twice', '<a x="1" x="2"/>', 1],
    ['an unquoted attribute', '<a x=1/>', 1],
    ['no element at all', '   ', 1],
    [
      'an entity its DOCTYPE declares (declarations are not read)',
      '<!DOCTYPE x [<!ENTITY e "boom">]><x>&e;</x>',
      1,
    ],
    ['an external entity', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<x>&e;</x>', 2],
  ])('refuses %s as not well-formed, saying where', (_name, xml, line) => {
    let error: unknown;
    try {
      parseXmlTree(xml);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(XmlReadError);
    expect((error as XmlReadError).reason).toBe('malformed');
    expect((error as XmlReadError).position?.line).toBe(line);
    expect((error as XmlReadError).message).toMatch(/^[a-z]/i);
  });

  it('refuses __proto__ as an element or attribute name, and the prototype stays clean', () => {
    for (const xml of [
      '<a><__proto__><x>1</x></__proto__></a>',
      '<a __proto__="1"/>',
      '<a p:__proto__="1" xmlns:p="urn:p"/>',
    ]) {
      expect(() => parseXmlTree(xml)).toThrow(expect.objectContaining({ reason: 'reserved' }));
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('takes elements as deep as the limit and refuses the first one deeper', () => {
    const nested = (depth: number) => `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    let expected: unknown = '';
    for (let i = 0; i < 5; i++) expected = { a: [expected] };
    expect(parseXmlTree(nested(5), 5)).toEqual(expected);
    expect(() => parseXmlTree(nested(6), 5)).toThrow(expect.objectContaining({ reason: 'depth' }));
  });

  it('reads a message of megabytes of text or of elements whole', () => {
    const text = 'x'.repeat(4 * 1024 * 1024);
    expect(parseXmlTree(`<a><b>${text}</b></a>`).a).toEqual([{ b: [text] }]);
    const points = Array.from({ length: 50_000 }, (_, i) => `<P><X>${i}</X><Y>${-i}</Y></P>`).join('');
    const tree = parseXmlTree(`<a>${points}</a>`).a as { P: { X: string[]; Y: string[] }[] }[];
    expect(tree[0].P).toHaveLength(50_000);
    expect(tree[0].P[49_999]).toEqual({ X: ['49999'], Y: ['-49999'] });
  });
});
