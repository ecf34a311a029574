import { describe, expect, it } from 'vitest';
import { progressCounts } from '../../../api/publish/status-route.js';
import type { LayerProgress, PublishProgress } from '../../../workflows/messages.js';

const layer = (layerId: number, rowsRead = 0, rowsLoaded = 0, rowsRejected = 0): LayerProgress => ({
  layerId,
  name: `layer${layerId}`,
  rowsRead,
  rowsLoaded,
  rowsRejected,
  featureCount: null,
});

const progress = (phase: string, layers: LayerProgress[], layersDone = 0): PublishProgress => ({
  phase,
  layersTotal: layers.length,
  layersDone,
  layers,
});

describe('publish status counts', () => {
  it('takes a loaded layer from the workflow once the job row is a second behind it', () => {
    // Seen after a restart: the row held 1,428,899 rows of the last second, the load had returned all.
    const stored = { layerId: 0, rowsRead: 1_428_899, rowsLoaded: 1_428_899, rowsRejected: 0 };
    const live = progressCounts(progress('finishing', [layer(0, 1_710_750, 1_710_750)]), stored);
    expect(live).toMatchObject({ rowsRead: 1_710_750, rowsLoaded: 1_710_750, rowsRejected: 0 });
    expect(live.layers[0]).toMatchObject({ rowsRead: 1_710_750, rowsLoaded: 1_710_750 });
  });

  it('shows the loading layer from the job row and sums it with the layers loaded before it', () => {
    const stored = { layerId: 1, rowsRead: 500, rowsLoaded: 490, rowsRejected: 10 };
    const live = progressCounts(progress('loading', [layer(0, 300, 297, 3), layer(1), layer(2)], 1), stored);
    expect(live.layers.map((l) => [l.rowsRead, l.rowsLoaded, l.rowsRejected])).toEqual([
      [300, 297, 3],
      [500, 490, 10],
      [0, 0, 0],
    ]);
    expect(live).toMatchObject({ rowsRead: 800, rowsLoaded: 787, rowsRejected: 13 });
    expect(live.rowsLoaded).toBeLessThanOrEqual(live.rowsRead ?? 0);
  });

  it('leaves the job row counts alone while the workflow is still planning', () => {
    const live = progressCounts(progress('planning', []), { layerId: 0, rowsRead: 5 });
    expect(live).not.toHaveProperty('rowsRead');
    expect(live).not.toHaveProperty('rowsLoaded');
  });
});
