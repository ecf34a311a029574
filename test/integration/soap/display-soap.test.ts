/**
 * The SOAP display operations (ExportMapImage, ExportScaleBar, legends, Find, Identify, screen and
 * map coordinates) over a published point CSV, through the `soap` npm client.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../publish/publish-client.js';
import { signIn } from '../support/portal-client.js';
import {
  BELMONT,
  DISPLAY,
  extentRequest,
  HOWARD,
  PNG_MIME,
  publishStations,
  type Reply,
  restQuery,
  soapClient,
  VIEW,
} from './soap-client.js';

const features = uniqueName('soap_display');
let client: any;

beforeAll(async () => {
  const token = await signIn();
  await publishStations(token, features);
  client = await soapClient(features);
}, 300_000);

describe('display operations', () => {
  it('ExportMapImage returns a PNG of the requested size with the station drawn in the layer blue', async () => {
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: extentRequest(...VIEW),
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    })) as Reply;
    const png = Buffer.from(reply.Result.ImageData, 'base64');
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 200]);
    const e = reply.Result.Extent;
    const res = (e.XMax - e.XMin) / 300;
    const px = Math.floor((BELMONT[0] - e.XMin) / res);
    const py = Math.floor((e.YMax - BELMONT[1]) / res);
    const i = (py * 300 + px) * 4;
    expect([data[i], data[i + 1], data[i + 2], data[i + 3]]).toEqual([0, 122, 194, 255]);
    expect(data[3]).toBe(0);
    expect(reply.Result.VisibleLayerIDs.Int).toEqual([0]);
  });

  it('ExportMapImage fills the BackgroundSymbol color and clears the TransparentColor', async () => {
    const yellow = { attributes: { 'xsi:type': 'tns:RgbColor' }, Red: 255, Green: 255, Blue: 0 };
    const background = {
      attributes: { 'xsi:type': 'tns:SimpleFillSymbol' },
      Color: yellow,
      Style: 'geoSFSSolid',
    };
    const md = { ...extentRequest(...VIEW), BackgroundSymbol: background };
    const corner = async (display: Record<string, unknown>) => {
      const [reply] = (await client.ExportMapImageAsync({
        MapDescription: md,
        ImageDescription: { ImageType: PNG_MIME, ImageDisplay: display },
      })) as Reply;
      const { data } = await sharp(Buffer.from(reply.Result.ImageData, 'base64'))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return [data[0], data[1], data[2], data[3]];
    };
    expect(await corner(DISPLAY)).toEqual([255, 255, 0, 255]);
    expect((await corner({ ...DISPLAY, TransparentColor: yellow }))[3]).toBe(0);
  });

  it('ExportMapImage in URL mode serves the image at the returned URL', async () => {
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: extentRequest(...VIEW),
      ImageDescription: {
        ImageType: { ...PNG_MIME, ImageReturnType: 'geoImageReturnURL' },
        ImageDisplay: DISPLAY,
      },
    })) as Reply;
    expect(reply.Result.ImageData).toBeUndefined();
    const res = await fetch(reply.Result.ImageURL);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(300);
  });

  const pixelsAround = async (reply: Reply[0], x: number, y: number, radius: number) => {
    const { data } = await sharp(Buffer.from(reply.Result.ImageData, 'base64'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const e = reply.Result.Extent;
    const res = (e.XMax - e.XMin) / 300;
    const [cx, cy] = [Math.floor((x - e.XMin) / res), Math.floor((e.YMax - y) / res)];
    const out: number[][] = [];
    for (let py = cy - radius; py <= cy + radius; py++)
      for (let px = cx - radius; px <= cx + radius; px++) {
        const i = (py * 300 + px) * 4;
        out.push([data[i], data[i + 1], data[i + 2], data[i + 3]]);
      }
    return out;
  };
  const belmontId = async () =>
    (await restQuery(features, { where: "Name = 'Belmont'", returnIdsOnly: 'true' })).objectIds[0];

  it('ExportMapImage centres a FeatureExtent on the named feature', async () => {
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: {
        Name: 'Layers',
        MapArea: {
          attributes: { 'xsi:type': 'tns:FeatureExtent' },
          DefaultScale: 50000,
          ExpandRatio: 1,
          FeatureIDs: { Int: [await belmontId()] },
          LayerID: 0,
          MapName: 'Layers',
        },
        Rotation: 0,
      },
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    })) as Reply;
    const e = reply.Result.Extent;
    expect((e.XMin + e.XMax) / 2).toBeCloseTo(BELMONT[0], 3);
    expect(reply.Result.MapScale).toBeCloseTo(50000, 3);
  });

  it('ExportMapImage draws with the renderer of a LayerDescription DrawingDescription', async () => {
    const red = { attributes: { 'xsi:type': 'tns:RgbColor' }, Red: 255, Green: 0, Blue: 0 };
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: {
        ...extentRequest(...VIEW),
        LayerDescriptions: {
          LayerDescription: [
            {
              LayerID: 0,
              Visible: true,
              ShowLabels: false,
              ScaleSymbols: false,
              SetSelectionSymbol: false,
              SelectionBufferDistance: 0,
              ShowSelectionBuffer: false,
              DefinitionExpression: '',
              DrawingDescription: {
                attributes: { 'xsi:type': 'tns:FeatureLayerDrawingDescription' },
                FeatureRenderer: {
                  attributes: { 'xsi:type': 'tns:SimpleRenderer' },
                  Symbol: {
                    attributes: { 'xsi:type': 'tns:SimpleMarkerSymbol' },
                    Angle: 0,
                    Color: red,
                    Size: 8,
                    XOffset: 0,
                    YOffset: 0,
                    Outline: false,
                    OutlineSize: 0,
                    OutlineColor: red,
                    Style: 'geoSMSSquare',
                  },
                },
              },
            },
          ],
        },
      },
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    })) as Reply;
    const [centre] = await pixelsAround(reply, BELMONT[0], BELMONT[1], 0);
    expect(centre).toEqual([255, 0, 0, 255]);
  });

  it('ExportMapImage rings selected features in the selection color', async () => {
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: {
        ...extentRequest(...VIEW),
        LayerDescriptions: {
          LayerDescription: [
            {
              LayerID: 0,
              Visible: true,
              ShowLabels: false,
              ScaleSymbols: false,
              SelectionFeatures: { Int: [await belmontId()] },
              SetSelectionSymbol: false,
              SelectionBufferDistance: 0,
              ShowSelectionBuffer: false,
              DefinitionExpression: '',
            },
          ],
        },
      },
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    })) as Reply;
    const around = await pixelsAround(reply, BELMONT[0], BELMONT[1], 10);
    expect(around).toContainEqual([0, 255, 255, 255]);
    const howard = await pixelsAround(reply, HOWARD[0], HOWARD[1], 10);
    expect(howard).not.toContainEqual([0, 255, 255, 255]);
  });

  it('ExportScaleBar draws a dark bar into a PNG of the requested size', async () => {
    const [reply] = (await client.ExportScaleBarAsync({
      ScaleBar: {
        attributes: { 'xsi:type': 'tns:AlternatingScaleBar' },
        Units: 'geoKilometers',
        Divisions: 4,
      },
      MapDescription: extentRequest(...VIEW),
      MapDisplay: DISPLAY,
      ImageDescription: {
        ImageType: PNG_MIME,
        ImageDisplay: { ImageWidth: 240, ImageHeight: 48, ImageDPI: 96 },
      },
    })) as Reply;
    const { data, info } = await sharp(Buffer.from(reply.Result.ImageData, 'base64'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([240, 48]);
    const i = (14 * 240 + 6) * 4;
    expect([data[i], data[i + 1], data[i + 2], data[i + 3]]).toEqual([0, 0, 0, 255]);
  });

  it('GetLegendInfo draws a 20×20 swatch with the marker in the layer blue', async () => {
    const [reply] = (await client.GetLegendInfoAsync({
      MapName: 'Layers',
      LayerIDs: {},
      LegendPatch: { Width: 20, Height: 20, ImageDPI: 96 },
      ImageType: PNG_MIME,
    })) as Reply;
    const legend = reply.Result.MapServerLegendInfo[0];
    expect(legend.LayerID).toBe(0);
    const swatch =
      legend.LegendGroups.MapServerLegendGroup[0].LegendClasses.MapServerLegendClass[0].SymbolImage;
    const { data, info } = await sharp(Buffer.from(swatch.ImageData, 'base64'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([20, 20]);
    const centre = (10 * 20 + 10) * 4;
    expect([data[centre], data[centre + 1], data[centre + 2]]).toEqual([0, 122, 194]);
  });

  it('Find matches a name case-insensitively and reports the field it matched', async () => {
    const [reply] = (await client.FindAsync({
      MapDescription: extentRequest(...VIEW),
      MapImageDisplay: DISPLAY,
      SearchString: 'belmont',
      Contains: true,
      SearchFields: 'Name,Line',
      FindOption: 'geoFindAllLayers',
      LayerIDs: {},
    })) as Reply;
    const results = reply.Result.MapServerFindResult;
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ Value: 'Belmont', FieldName: 'Name', LayerID: 0 });
    expect(results[0].Shape.X).toBeCloseTo(BELMONT[0], 0);
  });

  it('Identify with a pixel tolerance finds the station under the click and not its neighbours', async () => {
    const [reply] = (await client.IdentifyAsync({
      MapDescription: extentRequest(...VIEW),
      MapImageDisplay: DISPLAY,
      // 300 m off the station: within 5 pixels (~80 m each) of it.
      SearchShape: { attributes: { 'xsi:type': 'tns:PointN' }, X: HOWARD[0] + 300, Y: HOWARD[1] },
      Tolerance: 5,
      IdentifyOption: 'geoIdentifyAllLayers',
      LayerIDs: {},
    })) as Reply;
    const results = reply.Result.MapServerIdentifyResult;
    expect(results).toHaveLength(1);
    expect(results[0].Name).toBe('Howard');
  });

  it('ToMapPoints and FromMapPoints invert each other on the fitted extent', async () => {
    const args = { MapDescription: extentRequest(...VIEW), MapImageDisplay: DISPLAY };
    const [map] = (await client.ToMapPointsAsync({
      ...args,
      ScreenXValues: { Int: [15, 250] },
      ScreenYValues: { Int: [40, 190] },
    })) as Reply;
    const points = map.Result.PointArray.Point;
    const [screen] = (await client.FromMapPointsAsync({
      ...args,
      MapPoints: {
        attributes: { 'xsi:type': 'tns:MultipointN' },
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: {
          Point: points.map((p: { X: number; Y: number }) => ({
            attributes: { 'xsi:type': 'tns:PointN' },
            X: p.X,
            Y: p.Y,
          })),
        },
      },
    })) as Reply;
    expect(screen.ScreenXValues.Int).toEqual([15, 250]);
    expect(screen.ScreenYValues.Int).toEqual([40, 190]);
  });
});
