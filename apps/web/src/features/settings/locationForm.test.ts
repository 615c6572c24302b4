import { describe, expect, it } from 'vitest';
import { ClubLocationInput, JERUSALEM } from '@venue/domain';
import { cityOptions, locationValues, previewLocation, sunPreview, toLocationInput } from './locationForm';

describe('location form', () => {
  it('maps a built-in city and a custom location both ways', () => {
    expect(locationValues(JERUSALEM)).toEqual({ mode: 'city', city: 'Jerusalem', il: true, candleLightingMins: null });
    expect(toLocationInput({ mode: 'city', city: 'London' })).toEqual({ city: 'London', candleLightingMins: null });
    // The club's own candle-lighting minutes go with a city as with a custom location.
    expect(toLocationInput({ mode: 'city', city: 'Tel Aviv', candleLightingMins: '18' })).toEqual({
      city: 'Tel Aviv',
      candleLightingMins: 18,
    });
    const custom = locationValues({ ...JERUSALEM, city: null, name: 'Here', geoId: null });
    expect(custom).toMatchObject({ mode: 'custom', name: 'Here', latitude: 31.76904, geoId: '' });
    expect(ClubLocationInput.safeParse(toLocationInput(custom)).success).toBe(true);
  });

  it('keeps a non-number as typed so the schema says notANumber, and an empty field as absent', () => {
    const input = toLocationInput({
      mode: 'custom',
      name: 'X',
      latitude: 'abc',
      longitude: '4,5',
      elevation: '',
      timeZone: 'UTC',
    });
    expect(input).toMatchObject({ latitude: 'abc', longitude: 4.5 });
    expect(input).not.toHaveProperty('elevation');
    const issues = ClubLocationInput.safeParse(input).error!.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toEqual([['latitude', 'notANumber']]);
  });

  it('previews only a valid location; New York’s sunset in its own zone', () => {
    expect(previewLocation({ mode: 'custom', name: 'X', latitude: 95, longitude: 0, timeZone: 'UTC' })).toBeNull();
    const ny = previewLocation({ mode: 'city', city: 'New York' })!;
    expect(ny).toMatchObject({ timeZone: 'America/New_York', il: false });
    expect(sunPreview(ny, new Date('2026-09-06T16:00:00Z'))).toEqual({
      date: { year: 2026, month: 9, day: 6 },
      sunset: '19:19',
      nightfall: expect.stringMatching(/^19:5\d|20:0\d$/),
      // New York's custom, 18 minutes before sunset (19:19:57, rounded down as a deadline).
      candles: '19:01',
      candleMins: 18,
    });
    // Tel Aviv: the Israeli custom 20, or the club's own 18.
    expect(sunPreview(previewLocation({ mode: 'city', city: 'Tel Aviv' })!).candleMins).toBe(20);
    expect(sunPreview(previewLocation({ mode: 'city', city: 'Tel Aviv', candleLightingMins: 18 })!).candleMins).toBe(
      18,
    );
  });

  it('lists the cities in the interface language; the search text holds both names', () => {
    const he = cityOptions('he');
    expect(he[0].label).toMatch(/^א/);
    expect(he.find((o) => o.value === 'Antwerp')).toMatchObject({ label: 'אנטוורפן' });
    expect(cityOptions('en').find((o) => o.value === 'New York')!.search).toContain('ניו יורק');
  });
});
