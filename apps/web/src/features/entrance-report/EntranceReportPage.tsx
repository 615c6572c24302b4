import { ReportPage } from '../reports/ReportPage';

/**
 * /reports/app-entranceReport (seed 000 §2): the catalogue's entrances report
 * (filters, totals, .xlsx export and print like every report), refreshed live
 * as entrances arrive on the console's feed.
 */
export function EntranceReportPage() {
  return <ReportPage id="entrances" live />;
}
