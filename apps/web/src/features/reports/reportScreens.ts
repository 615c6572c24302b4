import { NAV_ENTRIES, REPORTS, type ReportId } from '@venue/domain';

/** A report's screen in the console: the catalogue's report at its navigation entry's route. */
export interface ReportScreen {
  id: ReportId;
  navKey: string;
  route: string;
}

/**
 * The console's report screens, derived from the catalogue (packages/domain
 * reports.ts `REPORTS`): every report whose navigation entry is in the
 * reports section (seed 000 §2 routes, navigation.ts `NAV_ENTRIES`) or, for the
 * operator's cross-club reports, in the operator's section, rendered
 * by the generic ReportPage. A report reached from another screen (a
 * client's entrances, under `clients`) has none.
 */
export const REPORT_SCREENS: readonly ReportScreen[] = (Object.keys(REPORTS) as ReportId[]).flatMap((id) => {
  const nav = NAV_ENTRIES.find(
    (n) => n.key === REPORTS[id].navKey && (n.section === 'reports' || n.section === 'operator'),
  );
  return nav ? [{ id, navKey: nav.key, route: nav.route }] : [];
});
