import { arrayOf, complex, type TypeDef } from './model.js';

const ELEMENT_HEAD = ['Name? string', 'Type? string', 'AutoTransform? boolean', 'ReferenceScale? double'];
const FRAME_TAIL = ['Locked? boolean', 'FixedAspectRatio? boolean'];
/** Circle, ellipse and rectangle elements list the shape first, then the common head. */
const SHAPED_ELEMENT = ['Rectangle Geometry', ...FRAME_TAIL, ...ELEMENT_HEAD, 'Symbol? Symbol'];

const SCALE_BAR_MARKS = [
  'DivisionMarkSymbol? LineSymbol',
  'SubdivisionMarkSymbol? LineSymbol',
  'DivisionMarkHeight? double',
  'SubdivisionMarkHeight? double',
  'MarkPosition? geoVertPosEnum',
  'MarkFrequency? geoScaleBarFrequency',
];

/** Custom graphics, frame decorations, scale bars and map server source descriptions. */
export const LAYOUT_TYPES: TypeDef[] = [
  complex('Element', [], { abstract: true }),
  complex('GraphicElement', [], { base: 'Element', abstract: true }),
  complex('LineElement', [...ELEMENT_HEAD, 'Symbol? Symbol', 'Line Geometry', ...FRAME_TAIL], {
    base: 'GraphicElement',
  }),
  complex('CircleElement', SHAPED_ELEMENT, { base: 'GraphicElement' }),
  complex('EllipseElement', SHAPED_ELEMENT, { base: 'GraphicElement' }),
  complex('RectangleElement', SHAPED_ELEMENT, { base: 'GraphicElement' }),
  complex(
    'GroupElement',
    [
      ...ELEMENT_HEAD,
      'Elements ArrayOfGraphicElement',
      'Rectangle? Geometry',
      ...FRAME_TAIL,
      'Border? Border',
      'Background? Background',
      'DraftMode? boolean',
      'Shadow? Shadow',
    ],
    { base: 'Element' },
  ),
  complex('MarkerElement', [...ELEMENT_HEAD, 'Symbol? Symbol', 'Point Point', 'Locked? boolean'], {
    base: 'GraphicElement',
  }),
  complex(
    'ParagraphTextElement',
    [
      ...ELEMENT_HEAD,
      'Text? string',
      'Scale? double',
      'Symbol? Symbol',
      'TextGeometry Geometry',
      'Locked? boolean',
      'FrameBorder? Border',
      'FrameBackground? Background',
      'FrameShadow? Shadow',
      'ColumnGap? double',
      'ColumnCount? int',
      'Margin? double',
    ],
    { base: 'GraphicElement' },
  ),
  complex('PolygonElement', [...ELEMENT_HEAD, 'Symbol? Symbol', 'Polygon Geometry', ...FRAME_TAIL], {
    base: 'GraphicElement',
  }),
  complex(
    'TextElement',
    [
      ...ELEMENT_HEAD,
      'Text? string',
      'Scale? boolean',
      'Symbol? Symbol',
      'TextGeometry Geometry',
      'Locked? boolean',
    ],
    { base: 'GraphicElement' },
  ),
  arrayOf('ArrayOfGraphicElement', 'GraphicElement GraphicElement'),

  complex('Border', [], { abstract: true }),
  complex(
    'SymbolBorder',
    ['HorizontalGap double', 'CornerRounding short', 'VerticalGap double', 'Symbol? LineSymbol'],
    { base: 'Border' },
  ),
  complex('Background', [], { abstract: true }),
  complex(
    'SymbolBackground',
    ['HorizontalGap double', 'CornerRounding short', 'VerticalGap double', 'Symbol? FillSymbol'],
    { base: 'Background' },
  ),
  complex('Shadow', [], { abstract: true }),
  complex(
    'SymbolShadow',
    ['Symbol? LineSymbol', 'CornerRounding short', 'HorizontalOffset double', 'VerticalOffset double'],
    { base: 'Shadow' },
  ),

  complex(
    'ScaleBar',
    [
      'BarHeight? double',
      'Division? double',
      'Divisions? short',
      'DivisionsBeforeZero? short',
      'Subdivisions? short',
      'Units? geoUnits',
      'UnitLabel? string',
      'UnitLabelPosition? geoScaleBarPos',
      'UnitLabelGap? double',
      'UnitLabelSymbol? TextSymbol',
      'LabelFrequency? geoScaleBarFrequency',
      'LabelPosition? geoVertPosEnum',
      'LabelGap? double',
      'LabelSymbol? TextSymbol',
      'NumberFormat? NumericFormat',
      'ResizeHint? geoScaleBarResizeHint',
    ],
    { abstract: true },
  ),
  complex('AlternatingScaleBar', ['FillSymbol1? FillSymbol', 'FillSymbol2? FillSymbol', ...SCALE_BAR_MARKS], {
    base: 'ScaleBar',
  }),
  complex('SingleDivisionScaleBar', ['FillSymbol? FillSymbol', ...SCALE_BAR_MARKS], { base: 'ScaleBar' }),
  complex('NumericFormat', [
    'RoundingOption? geoRoundingOptionEnum',
    'RoundingValue? int',
    'AlignmentOption? geoNumericAlignmentEnum',
    'AlignmentWidth? int',
    'UseSeparator? boolean',
    'ZeroPad? boolean',
    'ShowPlus? boolean',
  ]),

  complex('MapServerSourceDescription', [], { abstract: true }),
  complex('DataSourceDescription', ['WorkspaceID string'], { base: 'MapServerSourceDescription' }),
  complex('TableDataSourceDescription', ['TableName string', 'VersionName string'], {
    base: 'DataSourceDescription',
  }),
  complex(
    'QueryTableDataSourceDescription',
    ['Query string', 'OIDFields string', 'GeometryType geoGeometryType', 'SpatialReference SpatialReference'],
    { base: 'DataSourceDescription' },
  ),
  complex('RasterDataSourceDescription', ['RasterName string'], { base: 'DataSourceDescription' }),
  complex('MapTableSourceDescription', ['MapTableID int', 'VersionName? string'], {
    base: 'MapServerSourceDescription',
  }),
  complex(
    'JoinTableSourceDescription',
    [
      'LeftSourceDescription MapServerSourceDescription',
      'RightSourceDescription MapServerSourceDescription',
      'LeftTableKey string',
      'RightTableKey string',
      'JoinType? geoJoinType',
    ],
    { base: 'MapServerSourceDescription' },
  ),
];
