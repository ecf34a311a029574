import { arrayOf, complex, type TypeDef } from './model.js';

const SHAPE_FLAGS = ['HasID boolean', 'HasZ boolean', 'HasM boolean', 'Extent? Envelope'];

/** Geometry and spatial reference types: normal (`…N`) and binary (`…B`) forms, all typed by xsi:type. */
export const GEOMETRY_TYPES: TypeDef[] = [
  // Geometry is concrete but empty; every useful geometry arrives as one of its subtypes.
  complex('Geometry', []),
  complex('Curve', [], { base: 'Geometry', abstract: true }),
  complex('Segment', ['FromPoint Point', 'ToPoint Point'], { base: 'Curve', abstract: true }),
  complex('Line', [], { base: 'Segment' }),
  complex(
    'EllipticArc',
    [
      'EllipseStd boolean',
      'CenterPoint Point',
      'Rotation double',
      'MinorMajorRatio double',
      'IsCounterClockwise boolean',
      'IsMinor boolean',
    ],
    { base: 'Segment' },
  ),
  complex(
    'CircularArc',
    [
      'CenterPoint Point',
      'FromAngle? double',
      'ToAngle? double',
      'IsCounterClockwise boolean',
      'IsMinor boolean',
      'IsLine boolean',
    ],
    { base: 'Segment' },
  ),
  complex('BezierCurve', ['Degree int', 'ControlPointArray ArrayOfPoint'], { base: 'Segment' }),
  complex('Polycurve', [], { base: 'Curve', abstract: true }),

  complex('Envelope', [], { base: 'Geometry', abstract: true }),
  complex(
    'EnvelopeN',
    [
      'XMin double',
      'YMin double',
      'XMax double',
      'YMax double',
      'ZMin? double',
      'ZMax? double',
      'MMin? double',
      'MMax? double',
      'SpatialReference? SpatialReference',
    ],
    { base: 'Envelope' },
  ),
  complex('EnvelopeB', ['Bytes base64Binary'], { base: 'Envelope' }),

  complex('Point', [], { base: 'Geometry', abstract: true }),
  complex(
    'PointN',
    ['X double', 'Y double', 'M? double', 'Z? double', 'ID? int', 'SpatialReference? SpatialReference'],
    { base: 'Point' },
  ),
  complex('PointB', ['Bytes base64Binary'], { base: 'Point' }),

  complex('Multipoint', [], { base: 'Geometry', abstract: true }),
  complex('MultipointB', ['Bytes base64Binary'], { base: 'Multipoint' }),
  complex('MultipointN', [...SHAPE_FLAGS, 'PointArray? ArrayOfPoint', 'SpatialReference? SpatialReference'], {
    base: 'Multipoint',
  }),

  complex('Path', ['PointArray? ArrayOfPoint', 'SegmentArray? ArrayOfSegment'], { base: 'Curve' }),
  complex('Ring', [], { base: 'Path' }),

  complex('Polygon', [], { base: 'Polycurve', abstract: true }),
  complex('PolygonN', [...SHAPE_FLAGS, 'RingArray ArrayOfRing', 'SpatialReference? SpatialReference'], {
    base: 'Polygon',
  }),
  complex('PolygonB', ['Bytes base64Binary'], { base: 'Polygon' }),

  complex('Polyline', [], { base: 'Polycurve', abstract: true }),
  complex('PolylineN', [...SHAPE_FLAGS, 'PathArray ArrayOfPath', 'SpatialReference? SpatialReference'], {
    base: 'Polyline',
  }),
  complex('PolylineB', ['Bytes base64Binary'], { base: 'Polyline' }),

  arrayOf('ArrayOfPoint', 'Point Point'),
  arrayOf('ArrayOfPath', 'Path Path'),
  arrayOf('ArrayOfRing', 'Ring Ring'),
  arrayOf('ArrayOfSegment', 'Segment Segment'),

  complex('MultiPatch', [], { base: 'Geometry', abstract: true }),
  complex('MultiPatchB', ['Bytes base64Binary'], { base: 'MultiPatch' }),
  complex(
    'MultiPatchN',
    [
      'HasID boolean',
      'HasZ boolean',
      'HasM boolean',
      'Extent Envelope',
      'SurfacePatchArray ArrayOfSurfacePatch',
    ],
    { base: 'MultiPatch' },
  ),
  arrayOf('ArrayOfSurfacePatch', 'SurfacePatch Geometry'),
  complex('Triangles', ['PointArray? ArrayOfPoint'], { base: 'Geometry' }),
  complex('TriangleFan', ['PointArray? ArrayOfPoint'], { base: 'Geometry' }),
  complex('TriangleStrip', ['PointArray? ArrayOfPoint'], { base: 'Geometry' }),

  complex(
    'SpatialReference',
    [
      'WKT? string',
      'XOrigin? double',
      'YOrigin? double',
      'XYScale? double',
      'ZOrigin? double',
      'ZScale? double',
      'MOrigin? double',
      'MScale? double',
      'XYTolerance? double',
      'ZTolerance? double',
      'MTolerance? double',
      'HighPrecision? boolean',
      'LeftLongitude? double',
      'WKID? int',
      'LatestWKID? int',
      'VCSWKID? int',
      'LatestVCSWKID? int',
    ],
    { abstract: true },
  ),
  complex('ProjectedCoordinateSystem', [], { base: 'SpatialReference' }),
  complex('GeographicCoordinateSystem', [], { base: 'SpatialReference' }),
  complex('UnknownCoordinateSystem', [], { base: 'SpatialReference' }),
  complex('GeoTransformation', ['WKT? string', 'WKID? int']),
];
