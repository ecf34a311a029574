import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import soap from 'soap';
import { describe, expect, it } from 'vitest';
import { GEO_NAMESPACE } from '../../../soap/schema/model.js';
import { renderWsdl, soapActionOf } from '../../../soap/wsdl.js';
import { specOperationNames } from './fixtures.js';

const ENDPOINT = 'http://127.0.0.1:9/geo/services/Hosted/World/MapServer';
const wsdl = renderWsdl({ serviceName: 'World', endpointUrl: ENDPOINT });
const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(wsdl).definitions;

type Named = { name: string; [key: string]: unknown };
const byName = (list: Named[], name: string) => list.find((x) => x.name === name);

async function nodeSoapClient() {
  const dir = mkdtempSync(join(tmpdir(), 'geo-wsdl-'));
  const file = join(dir, 'MapServer.wsdl');
  writeFileSync(file, wsdl);
  return soap.createClientAsync(file);
}

describe('the generated WSDL', () => {
  it('declares the schema in our versioned namespace with unqualified local elements', () => {
    expect(parsed.targetNamespace).toBe(GEO_NAMESPACE);
    expect(GEO_NAMESPACE).toContain('3.5.0');
    expect(parsed.types['xs:schema'].elementFormDefault).toBeUndefined();
  });

  it('has one port type operation and one binding operation per spec operation', () => {
    expect(parsed.portType.operation.map((o: Named) => o.name)).toEqual(specOperationNames());
    expect(parsed.binding.operation.map((o: Named) => o.name)).toEqual(specOperationNames());
  });

  it('binds every operation as SOAP 1.1 document/literal with its own soapAction', () => {
    expect(parsed.binding['soap:binding'].transport).toBe('http://schemas.xmlsoap.org/soap/http');
    const getMapTile = byName(parsed.binding.operation, 'GetMapTile') as Named &
      Record<string, Record<string, string>>;
    expect(getMapTile['soap:operation']).toEqual({
      soapAction: soapActionOf('GetMapTile'),
      style: 'document',
    });
    expect(getMapTile.input['soap:body']).toEqual({ use: 'literal' });
  });

  it('addresses the service at the endpoint it was given', () => {
    expect(parsed.service.name).toBe('World_MapServer');
    expect(parsed.service.port['soap:address'].location).toBe(ENDPOINT);
  });

  it('folds a service name into an NCName for the service element', () => {
    const other = renderWsdl({ serviceName: '2024 Parcels (draft)', endpointUrl: ENDPOINT });
    expect(other).toContain('<service name="_2024_Parcels__draft__MapServer">');
  });

  it('declares abstract bases as abstract and subtypes by extension', () => {
    const types: Named[] = parsed.types['xs:schema']['xs:complexType'];
    expect(byName(types, 'SpatialReference')?.abstract).toBe('true');
    const envelopeN = byName(types, 'EnvelopeN') as Named &
      Record<string, Record<string, Record<string, string>>>;
    expect(envelopeN['xs:complexContent']['xs:extension'].base).toBe('tns:Envelope');
  });

  it('is accepted by node-soap, which lists all 55 operations', async () => {
    const client = await nodeSoapClient();
    const port = client.describe().World_MapServer.MapServerPort;
    expect(Object.keys(port).sort()).toEqual([...specOperationNames()].sort());
  });

  it('gives node-soap the request parts of GetMapTile and QueryFeatureCount in order', async () => {
    const port = (await nodeSoapClient()).describe().World_MapServer.MapServerPort;
    expect(port.GetMapTile.input).toEqual({
      MapName: 'xs:string',
      Level: 'xs:int',
      Row: 'xs:int',
      Column: 'xs:int',
      Format: 'xs:string',
    });
    expect(Object.keys(port.QueryFeatureCount.input).slice(0, 3)).toEqual([
      'MapName',
      'LayerID',
      'QueryFilter',
    ]);
    expect(port.QueryFeatureCount.input.QueryFilter.WhereClause).toBe('xs:string');
  });
});
