import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryRelated } from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import type { SevenZipModuleFactory } from '7z-wasm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  featureServer,
  fixture,
  publishFile,
  uniqueName,
  upload,
  waitForJob,
} from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';

// related.gdb.zip (make-related-fixture.py): parks 1──<M inspections ("parks_inspections", composite,
// on park_id), parks M>──<N species through the attributed class "park_species" (park_id, code, trees),
// inspections 1──<M inspections ("reinspections", reflexive: inspection_id = follows) and "parks_wardens",
// whose table wardens the file does not hold. The expected related rows are joined here from the tables
// as Debian's ogr2ogr reads them, the classes and tables as Debian's python3-gdal lists them.
const CLASSES_SCRIPT = [
  'import json, sys',
  'from osgeo import gdal',
  'ds = gdal.OpenEx(sys.argv[1])',
  'tables = [ds.GetLayer(i).GetName() for i in range(ds.GetLayerCount())]',
  'classes = {}',
  'for n in ds.GetRelationshipNames():',
  '  r = ds.GetRelationship(n)',
  '  classes[n] = [t for t in (r.GetLeftTableName(), r.GetRightTableName(), r.GetMappingTableName()) if t]',
  'print(json.dumps(dict(tables=tables, classes=classes)))',
].join('\n');
const FILE = 'file-geodatabase/related.gdb.zip';
const SevenZip = createRequire(import.meta.url)('7z-wasm') as SevenZipModuleFactory;
type Row = Record<string, any>;

describe('a file geodatabase published with its relationship classes', () => {
  let token: string;
  let path: string;
  let authentication: ArcGISIdentityManager;
  let ids: Record<string, number>;
  let data: Record<string, Row[]>;
  /** Published parks: OBJECTID → park_id. */
  let parkOf: Map<number, number>;
  let speciesOid: Map<string, number>;
  /** Published inspections: OBJECTID → [inspection_id, follows]. */
  let inspectionOf: Map<number, [number, number | null]>;
  let firstStatus: Record<string, any>;
  let gdal: { tables: string[]; classes: Record<string, string[]> };
  /** What a publish of `published` tables is expected to say of the classes it cannot carry. */
  const expectedWarnings = (published: string[]) =>
    Object.entries(gdal.classes)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([name, tables]) => {
        const missing = [...new Set(tables)].filter((t) => !published.includes(t));
        if (missing.length === 0) return [];
        const list = missing.map((t) => `'${t}'`).join(', ');
        const verb = missing.length === 1 ? 'its table' : 'its tables';
        return [
          `Relationship class '${name}' is left out: ${verb} ${list} ${missing.length === 1 ? 'is' : 'are'} not published.`,
        ];
      });
  const dir = mkdtempSync(join(tmpdir(), 'related-gdb-it-'));
  const related = async (layer: number, params: Record<string, string>) =>
    (await call(`${path}/${layer}/queryRelatedRecords`, { token, ...params }, { method: 'GET' })).json;
  const layerJson = async (layer: number) =>
    (await call(`${path}/${layer}`, { token }, { method: 'GET' })).json;

  beforeAll(async () => {
    execFileSync('unzip', ['-q', fixture(FILE), '-d', dir]);
    const read = (table: string): Row[] =>
      JSON.parse(
        execFileSync('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', join(dir, 'related.gdb'), table], {
          encoding: 'utf8',
        }),
      ).features.map((f: any) => f.properties);
    data = Object.fromEntries(['parks', 'inspections', 'species', 'park_species'].map((t) => [t, read(t)]));
    gdal = JSON.parse(
      execFileSync('/usr/bin/python3', ['-c', CLASSES_SCRIPT, join(dir, 'related.gdb')], {
        encoding: 'utf8',
      }),
    );

    token = await signIn();
    const name = uniqueName('gdb_related');
    const { status } = await publishFile(token, FILE, 'fileGeodatabase', { name });
    expect(status.status).toBe('completed');
    firstStatus = status;
    path = featureServer(name);
    const service = (await call(path, { token }, { method: 'GET' })).json;
    ids = Object.fromEntries([...service.layers, ...service.tables].map((l: any) => [l.name, l.id]));
    const rows = async (layer: number, outFields: string) =>
      (await call(`${path}/${layer}/query`, { token, where: '1=1', outFields }, { method: 'GET' })).json
        .features as { attributes: Row }[];
    parkOf = new Map(
      (await rows(ids.parks, 'park_id')).map((f) => [f.attributes.OBJECTID, f.attributes.park_id]),
    );
    speciesOid = new Map(
      (await rows(ids.species, 'code')).map((f) => [f.attributes.code, f.attributes.OBJECTID]),
    );
    inspectionOf = new Map(
      (await rows(ids.inspections, 'inspection_id,follows')).map((f) => [
        f.attributes.OBJECTID,
        [f.attributes.inspection_id, f.attributes.follows],
      ]),
    );
    authentication = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The fixture's own join: park OBJECTID → sorted related values. */
  const expectedInspections = () =>
    [...parkOf.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([oid, park]) => [
        oid,
        data.inspections
          .filter((i) => i.park_id === park)
          .map((i) => i.topic)
          .sort(),
      ])
      .filter(([, topics]) => (topics as string[]).length > 0);
  const expectedSpecies = () =>
    [...parkOf.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([oid, park]) => {
        const codes = data.park_species.filter((l) => l.park_id === park).map((l) => l.code);
        return [
          oid,
          data.species
            .filter((s) => codes.includes(s.code))
            .map((s) => s.common_name)
            .sort(),
        ];
      })
      .filter(([, names]) => (names as string[]).length > 0);

  it('lists each relationship class on both layers in ArcGIS layer JSON, the attributed one through its table', async () => {
    const parks = await layerJson(ids.parks);
    expect(parks.relationships).toEqual([
      {
        id: 0,
        name: 'park_species',
        relatedTableId: ids.species,
        cardinality: 'esriRelCardinalityManyToMany',
        role: 'esriRelRoleOrigin',
        keyField: 'park_id',
        composite: false,
        relationshipTableId: ids.park_species,
        keyFieldInRelationshipTable: 'park_id',
      },
      {
        id: 1,
        name: 'parks_inspections',
        relatedTableId: ids.inspections,
        cardinality: 'esriRelCardinalityOneToMany',
        role: 'esriRelRoleOrigin',
        keyField: 'park_id',
        composite: true,
      },
    ]);
    const reinspections = {
      name: 'reinspections',
      relatedTableId: ids.inspections,
      cardinality: 'esriRelCardinalityOneToMany',
      composite: false,
    };
    expect((await layerJson(ids.inspections)).relationships).toEqual([
      { ...parks.relationships[1], relatedTableId: ids.parks, role: 'esriRelRoleDestination' },
      // The reflexive class: one entry per role, each with its own id.
      { id: 2, ...reinspections, role: 'esriRelRoleOrigin', keyField: 'inspection_id' },
      { id: 3, ...reinspections, role: 'esriRelRoleDestination', keyField: 'follows' },
    ]);
    expect((await layerJson(ids.species)).relationships).toEqual([
      {
        ...parks.relationships[0],
        relatedTableId: ids.parks,
        role: 'esriRelRoleDestination',
        keyField: 'code',
        keyFieldInRelationshipTable: 'code',
      },
    ]);
    expect(parks.advancedQueryCapabilities).toMatchObject({
      supportsQueryRelatedPagination: true,
      supportsAdvancedQueryRelated: true,
    });
  });

  it('the job status says which classes the publish left out and why', async () => {
    expect(gdal.classes.parks_wardens).toContain('wardens');
    expect(gdal.tables).not.toContain('wardens');
    const warnings = expectedWarnings(gdal.tables);
    expect(warnings).toHaveLength(1);
    expect(firstStatus.warnings).toEqual(warnings);
    expect(firstStatus.statusMessage).toBe('completed');
  });

  it('queryRelatedRecords answers the reflexive class in both directions', async () => {
    const objectIds = [...inspectionOf.keys()].sort((a, b) => a - b);
    const topicsOf = (rows: Row[]) => rows.map((r) => r.topic).sort();
    const groups = (res: any) =>
      res.relatedRecordGroups.map((g: any) => [
        g.objectId,
        g.relatedRecords.map((r: any) => r.attributes.topic).sort(),
      ]);
    // Origin to destination: the inspections that follow each one up.
    const followUps = await related(ids.inspections, {
      objectIds: objectIds.join(','),
      relationshipId: '2',
      outFields: 'topic',
    });
    expect(groups(followUps)).toEqual(
      objectIds
        .map((oid) => {
          const own = inspectionOf.get(oid)?.[0];
          return [oid, topicsOf(data.inspections.filter((i) => i.follows === own))];
        })
        .filter(([, topics]) => (topics as string[]).length > 0),
    );
    // Destination to origin: the inspection each one follows up.
    const followed = await related(ids.inspections, {
      objectIds: objectIds.join(','),
      relationshipId: '3',
      outFields: 'topic,inspection_id',
    });
    expect(groups(followed)).toEqual(
      objectIds
        .map((oid) => {
          const follows = inspectionOf.get(oid)?.[1];
          return [oid, topicsOf(data.inspections.filter((i) => i.inspection_id === follows))];
        })
        .filter(([, topics]) => (topics as string[]).length > 0),
    );
    expect(followed.fields.map((f: any) => f.name)).toEqual(['OBJECTID', 'topic', 'inspection_id']);
  });

  it('analyze lists the relationships publish makes, and publishing its answer unchanged makes the same', async () => {
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'fileGeodatabase' },
      { name: 'related.gdb.zip', path: fixture(FILE) },
    );
    expect(analyzed.warnings).toEqual(expectedWarnings(gdal.tables));
    const listed = analyzed.publishParameters.layers as any[];
    for (const l of listed)
      expect(l.relationships, l.name).toEqual((await layerJson(ids[l.name])).relationships);
    expect(analyzed.publishParameters.layerInfo.relationships).toBeUndefined();

    const name = uniqueName('gdb_analyzed');
    const { status } = await publishFile(token, FILE, 'fileGeodatabase', {
      ...analyzed.publishParameters,
      name,
    });
    expect(status.status).toBe('completed');
    // Declared by the publisher now: the file's classes do not come again, so nothing is left out.
    expect(status.warnings).toBeUndefined();
    const again = featureServer(name);
    for (const l of listed) {
      const layer = (await call(`${again}/${l.id}`, { token }, { method: 'GET' })).json;
      expect(layer.relationships, l.name).toEqual(l.relationships);
    }
    const counts = (
      await call(
        `${again}/${listed.find((l) => l.name === 'inspections').id}/queryRelatedRecords`,
        {
          token,
          objectIds: [...inspectionOf.keys()].join(','),
          relationshipId: '2',
          returnCountOnly: 'true',
        },
        { method: 'GET' },
      )
    ).json;
    const total = counts.relatedRecordGroups.reduce((n: number, g: any) => n + g.count, 0);
    expect(total).toBe(data.inspections.filter((i) => i.follows !== null && i.follows !== undefined).length);
  }, 180_000);

  it('a publish listing some tables only leaves out, and says, the classes of the others', async () => {
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'fileGeodatabase' },
      { name: 'related.gdb.zip', path: fixture(FILE) },
    );
    const kept = (analyzed.publishParameters.layers as any[])
      .filter((l) => l.name !== 'park_species')
      .map(({ relationships: _, ...l }) => l);
    const name = uniqueName('gdb_some');
    const { status } = await publishFile(token, FILE, 'fileGeodatabase', {
      ...analyzed.publishParameters,
      name,
      layers: kept,
    });
    expect(status.status).toBe('completed');
    const published = gdal.tables.filter((t) => t !== 'park_species');
    expect(status.warnings).toEqual(expectedWarnings(published));
    expect(status.warnings).toContain(
      "Relationship class 'park_species' is left out: its table 'park_species' is not published.",
    );
    // The classes published are numbered without the ones left out.
    const parks = (
      await call(
        `${featureServer(name)}/${kept.find((l) => l.name === 'parks').id}`,
        { token },
        { method: 'GET' },
      )
    ).json;
    expect(parks.relationships.map((r: any) => [r.id, r.name])).toEqual([[0, 'parks_inspections']]);
  }, 180_000);

  it('a service definition carrying the geodatabase: analyze lists its relationships, publish makes them', async () => {
    const sz = await SevenZip({ print: () => {}, printErr: () => {} });
    sz.FS.mkdir('/src');
    sz.FS.mkdir('/src/esriinfo');
    sz.FS.writeFile('/src/esriinfo/iteminfo.xml', new TextEncoder().encode('<ESRI_ItemInformation/>'));
    sz.FS.mkdir('/src/v101');
    sz.FS.mkdir('/src/v101/related.gdb');
    for (const [path, bytes] of Object.entries(unzipSync(readFileSync(fixture(FILE)))))
      if (!path.endsWith('/')) sz.FS.writeFile(`/src/v101/${path}`, bytes);
    sz.FS.chdir('/src');
    sz.callMain(['a', '/out.sd', '*', '-bd']);
    const sd = join(dir, 'related.sd');
    writeFileSync(sd, sz.FS.readFile('/out.sd'));

    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'serviceDefinition' },
      { name: 'related.sd', path: sd },
    );
    expect(analyzed.warnings).toEqual(expectedWarnings(gdal.tables));
    const listed = analyzed.publishParameters.layers as any[];
    expect(listed.map((l) => l.name).sort()).toEqual([...gdal.tables].sort());
    for (const l of listed)
      expect(l.relationships, l.name).toEqual((await layerJson(ids[l.name])).relationships);

    const name = uniqueName('sd_related');
    const owner = stack().admin.username;
    const res = await upload(
      `/sharing/rest/content/users/${owner}/publish`,
      { token, filetype: 'serviceDefinition', publishParameters: JSON.stringify({ name }) },
      { name: 'related.sd', path: sd },
    );
    const status = await waitForJob(token, owner, res.services[0].serviceItemId, res.services[0].jobId);
    expect(status.status).toBe('completed');
    expect(status.warnings).toEqual(expectedWarnings(gdal.tables));
    for (const l of listed) {
      const layer = (await call(`${featureServer(name)}/${l.id}`, { token }, { method: 'GET' })).json;
      expect(layer.relationships, l.name).toEqual(l.relationships);
    }
  }, 180_000);

  it('queryRelatedRecords (raw HTTP) finds each park’s inspections by key', async () => {
    const res = await related(ids.parks, {
      objectIds: [...parkOf.keys()].join(','),
      relationshipId: '1',
      outFields: 'topic',
      orderByFields: 'topic',
    });
    expect(
      res.relatedRecordGroups.map((g: any) => [
        g.objectId,
        g.relatedRecords.map((r: any) => r.attributes.topic),
      ]),
    ).toEqual(expectedInspections());
    expect(res.fields.map((f: any) => f.name)).toEqual(['OBJECTID', 'topic']);
  });

  it('queryRelated of @esri/arcgis-rest-feature-service goes through the relationship table both ways', async () => {
    const res = await queryRelated({
      url: `${stack().baseUrl}${path}/${ids.parks}`,
      authentication,
      objectIds: [...parkOf.keys()],
      relationshipId: 0,
      outFields: ['common_name'],
      params: { orderByFields: 'common_name' },
    });
    expect(
      res.relatedRecordGroups.map((g: any) => [
        g.objectId,
        g.relatedRecords.map((r: any) => r.attributes.common_name),
      ]),
    ).toEqual(expectedSpecies());
    // From a species back to the parks that hold it.
    const oak = speciesOid.get('QURO') as number;
    const back = await queryRelated({
      url: `${stack().baseUrl}${path}/${ids.species}`,
      authentication,
      objectIds: [oak],
      relationshipId: 0,
      outFields: ['name'],
    });
    const oakParks = data.park_species.filter((l) => l.code === 'QURO').map((l) => l.park_id);
    expect(
      (back.relatedRecordGroups[0] as any).relatedRecords.map((r: any) => r.attributes.name).sort(),
    ).toEqual(
      data.parks
        .filter((p) => oakParks.includes(p.park_id))
        .map((p) => p.name)
        .sort(),
    );
    expect((back as any).geometryType).toBe('esriGeometryPoint');
  });

  it('counts related records per park through the relationship table', async () => {
    const res = await related(ids.parks, {
      objectIds: [...parkOf.keys()].join(','),
      relationshipId: '0',
      returnCountOnly: 'true',
    });
    expect(res.relatedRecordGroups.map((g: any) => [g.objectId, g.count])).toEqual(
      expectedSpecies().map(([oid, names]) => [oid, (names as string[]).length]),
    );
  });

  it('pages with resultOffset and resultRecordCount over the groups in turn', async () => {
    const flat = expectedSpecies().flatMap(([oid, names]) => (names as string[]).map((n) => [oid, n]));
    const seen: unknown[][] = [];
    const flags: boolean[] = [];
    for (let offset = 0; offset < flat.length; offset += 2) {
      const page = await related(ids.parks, {
        objectIds: [...parkOf.keys()].join(','),
        relationshipId: '0',
        outFields: 'common_name',
        orderByFields: 'common_name',
        resultOffset: String(offset),
        resultRecordCount: '2',
      });
      for (const g of page.relatedRecordGroups)
        for (const r of g.relatedRecords) seen.push([g.objectId, r.attributes.common_name]);
      flags.push(page.exceededTransferLimit === true);
    }
    expect(seen).toEqual(flat);
    expect(flags).toEqual(flags.map((_, i) => i < flags.length - 1));
  });

  it('refuses a bad page size and an unknown parameter with a 400', async () => {
    const bad = await related(ids.parks, { objectIds: '1', relationshipId: '0', resultRecordCount: '0' });
    expect(bad.error.code).toBe(400);
    expect(bad.error.details[0]).toMatch(/resultRecordCount/);
    const odd = await related(ids.parks, {
      objectIds: '1',
      relationshipId: '0',
      quantizationParameters: '{}',
    });
    expect(odd.error.details[0]).toBe("'quantizationparameters' is not supported by queryRelatedRecords.");
  });

  it('a declaration in publishParameters replaces the file’s classes, many-to-many included', async () => {
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'fileGeodatabase' },
      { name: 'related.gdb.zip', path: fixture(FILE) },
    );
    const index = Object.fromEntries(analyzed.publishParameters.layers.map((l: any) => [l.name, l.id]));
    const side = {
      id: 7,
      name: 'declared',
      cardinality: 'esriRelCardinalityManyToMany',
      composite: false,
      relationshipTableId: index.park_species,
    };
    const parksSide = {
      ...side,
      relatedTableId: index.species,
      role: 'esriRelRoleOrigin',
      keyField: 'park_id',
      keyFieldInRelationshipTable: 'park_id',
    };
    const speciesSide = {
      ...side,
      relatedTableId: index.parks,
      role: 'esriRelRoleDestination',
      keyField: 'code',
      keyFieldInRelationshipTable: 'code',
    };
    // The publisher's own relationships in place of those analyze lists.
    const layers = (extra: Record<number, object[]>) =>
      analyzed.publishParameters.layers.map((l: any) => ({ ...l, relationships: extra[l.id] ?? [] }));
    const name = uniqueName('gdb_declared');
    const { status } = await publishFile(token, FILE, 'fileGeodatabase', {
      ...analyzed.publishParameters,
      name,
      layers: layers({ [index.parks]: [parksSide], [index.species]: [speciesSide] }),
    });
    expect(status.status).toBe('completed');
    const declared = featureServer(name);
    const parks = (await call(`${declared}/${index.parks}`, { token }, { method: 'GET' })).json;
    expect(parks.relationships).toEqual([parksSide]);
    expect(
      (await call(`${declared}/${index.inspections}`, { token }, { method: 'GET' })).json.relationships,
    ).toEqual([]);
    const counts = (
      await call(
        `${declared}/${index.parks}/queryRelatedRecords`,
        { token, objectIds: '1,2,3,4', relationshipId: '7', returnCountOnly: 'true' },
        { method: 'GET' },
      )
    ).json;
    const total = counts.relatedRecordGroups.reduce((n: number, g: any) => n + g.count, 0);
    expect(total).toBe(data.park_species.length);

    const { relationshipTableId: _, ...noTable } = speciesSide;
    const refused = await upload(
      `/sharing/rest/content/users/${stack().admin.username}/publish`,
      {
        token,
        filetype: 'fileGeodatabase',
        publishParameters: JSON.stringify({
          ...analyzed.publishParameters,
          name: uniqueName('gdb_refused'),
          layers: layers({ [index.parks]: [parksSide], [index.species]: [noTable] }),
        }),
      },
      { name: 'related.gdb.zip', path: fixture(FILE) },
    );
    expect(refused.error.code).toBe(400);
    expect(refused.error.details[0]).toBe(
      `layer ${index.species}, relationships[0]: a many-to-many relationship needs 'relationshipTableId', a layer id`,
    );
  }, 180_000);
});
