import { describe, expect, it } from 'vitest';
import { htmlPopup } from '../../../soap/handlers/html-popup.js';

describe('HTML popups', () => {
  it('tabulates the fields by alias and escapes markup in values', () => {
    const html = htmlPopup(
      'Stations',
      [{ name: 'Name', column: 'a_1', type: 'esriFieldTypeString', alias: 'Station name' }],
      { objectid: 1, attrs: { Name: '<b>Belmont</b> & co' } },
    );
    expect(html).toBe(
      '<html><body><h3>Stations</h3><table><tr><th>Station name</th><td>&lt;b&gt;Belmont&lt;/b&gt; &amp; co</td></tr></table></body></html>',
    );
  });

  it('shows a missing value as Null, as the real server does', () => {
    const html = htmlPopup('L', [{ name: 'Riders', column: 'a_2', type: 'esriFieldTypeInteger' }], {
      objectid: 1,
      attrs: { Riders: null },
    });
    expect(html).toContain('<td>Null</td>');
  });
});
