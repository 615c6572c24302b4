import { useCallback, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { eventsQuery, prefsKey, readPrefs, type CalendarPrefs } from './calendarOptions';

/** The signed-in user's calendar options, remembered in this browser (localStorage, per club and user). */
export function useCalendarPrefs(): [CalendarPrefs, (p: CalendarPrefs) => void] {
  const { user, club } = useSessionData();
  const lang = useLanguage();
  const key = prefsKey(club.id, user.id);
  const [prefs, setPrefs] = useState(() => readPrefs(localStorage.getItem(key), lang));
  const save = useCallback(
    (p: CalendarPrefs) => {
      setPrefs(p);
      localStorage.setItem(key, JSON.stringify(p));
    },
    [key],
  );
  return [prefs, save];
}

/** GET /api/Calendar/Events for a period with the options. */
export function useCalendarEvents(prefs: CalendarPrefs, start: string, end: string) {
  const query = eventsQuery(prefs, start, end);
  return useQuery({
    queryKey: ['calendar', 'events', query],
    queryFn: () => api.call(contract.calendar.events, { query: query as never }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/Calendar/Zmanim for a day. */
export function useZmanim(prefs: CalendarPrefs, date: string | null) {
  const query = {
    date: date ?? undefined,
    locale: prefs.locale,
    useElevation: String(prefs.useElevation),
    ...(prefs.il !== null ? { il: String(prefs.il) } : {}),
    ...(prefs.candleLightingMins !== null ? { candleLightingMins: String(prefs.candleLightingMins) } : {}),
    ...(prefs.havdalahMins !== null ? { havdalahMins: String(prefs.havdalahMins) } : {}),
    ...(prefs.havdalahMins === null && prefs.havdalahDeg !== null ? { havdalahDeg: String(prefs.havdalahDeg) } : {}),
  };
  return useQuery({
    queryKey: ['calendar', 'zmanim', query],
    queryFn: () => api.call(contract.calendar.zmanim, { query: query as never }),
    enabled: date !== null,
  });
}

/** GET /api/Calendar/Hours: each group's opening hours per day of the period. */
export function useGroupHours(start: string, end: string) {
  return useQuery({
    queryKey: ['calendar', 'hours', start, end],
    queryFn: () => api.call(contract.calendar.hours, { query: { start, end } }),
  });
}

/** The club's feed link, and its rotation (POST /api/Calendar/Feed/Rotate). */
export function useFeedLink() {
  const qc = useQueryClient();
  const link = useQuery({ queryKey: ['calendar', 'feed'], queryFn: () => api.call(contract.calendar.feedLink) });
  const rotate = useMutation({
    mutationFn: () => api.call(contract.calendar.rotateFeed, { body: {} }),
    onSuccess: (data) => qc.setQueryData(['calendar', 'feed'], data),
  });
  return { link, rotate };
}
