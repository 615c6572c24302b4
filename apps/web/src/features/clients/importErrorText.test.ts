import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { catalogues } from '../../app/catalogues';
import { UploadError } from '../../shared/upload';
import { importErrorText } from './ImportClientsModal';

/** The import's refusals as the console words them, from the server's answer as uploadFile throws it. */
describe('importErrorText', () => {
  it('names the row and column where a CSV quote is never closed, in Hebrew and English', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      resources: { he: { translation: catalogues.he }, en: { translation: catalogues.en } },
      lng: 'en',
    });
    const e = new UploadError(422, 'CSV_MALFORMED', 'x', { reason: 'quoteNotClosed', row: 3, column: 2 });
    expect(importErrorText(i18n.t, e)).toMatch(/row 3, column 2: a field opens with a quote/);
    await i18n.changeLanguage('he');
    expect(importErrorText(i18n.t, e)).toMatch(/בשורה 3, עמודה 2/);
    // A PDF is named as such (the detail of UNSUPPORTED_FILE_TYPE, as the upload received it).
    await i18n.changeLanguage('en');
    const pdf = new UploadError(415, 'UNSUPPORTED_FILE_TYPE', 'x', [{ path: 'file', message: 'fileIsPdf' }]);
    expect(importErrorText(i18n.t, pdf)).toMatch(/is a PDF document/);
  });
});
