import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contract,
  type BookingCreate,
  type BookingMove,
  type BookingResourceInput,
  type BookingResourceKind,
  type BookingSettings,
} from '@venue/domain';
import { api } from '../../platform/api/apiClient';

/**
 * API hooks of the immersion appointments console (docs/appointments.md "The console"); the
 * entries are `contract.appointments`. Every change invalidates every booking query: a booking
 * changes the slots, the evening and the waitlist at once.
 */
export const BOOKING_KEY = ['bookings'] as const;

/** How often the attendant's evening and the day's bookings refresh, ms (no live event for bookings). */
export const EVENING_REFRESH_MS = 10_000;

/** The club's bookable rooms (active and inactive). */
export function useRooms() {
  return useQuery({ queryKey: [...BOOKING_KEY, 'rooms'], queryFn: () => api.call(contract.appointments.resources) });
}

/** The club's booking rules (cutoff, offer hold, retention, gate window, days ahead). */
export function useBookingSettings() {
  return useQuery({
    queryKey: [...BOOKING_KEY, 'settings'],
    queryFn: () => api.call(contract.appointments.settings),
  });
}

/** The week's slots from `from` (club-local date, 7 days) for a group and a room kind. */
export function useSlots(from: string, groupId: number | undefined, kind: BookingResourceKind | undefined) {
  return useQuery({
    queryKey: [...BOOKING_KEY, 'slots', from, groupId ?? null, kind ?? null],
    queryFn: ({ signal }) =>
      api.call(contract.appointments.slots, {
        query: { from, days: 7, ...(groupId ? { groupId } : {}), ...(kind ? { kind } : {}) },
        signal,
      }),
    refetchInterval: EVENING_REFRESH_MS * 3,
  });
}

/** Each room with its live bookings of a date's evening (local noon to the next noon); refreshed every 10 s. */
export function useEvening(date: string | undefined) {
  return useQuery({
    queryKey: [...BOOKING_KEY, 'evening', date ?? 'today'],
    queryFn: ({ signal }) => api.call(contract.appointments.evening, { query: date ? { date } : {}, signal }),
    refetchInterval: EVENING_REFRESH_MS,
  });
}

/** The waitlist of a date, in order. */
export function useWaitlist(date: string) {
  return useQuery({
    queryKey: [...BOOKING_KEY, 'waitlist', date],
    queryFn: ({ signal }) => api.call(contract.appointments.waitlist, { query: { date }, signal }),
    refetchInterval: EVENING_REFRESH_MS * 3,
  });
}

/** Every change of rooms, settings, bookings and the waitlist; each refreshes every booking query. */
export function useBookingActions() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: BOOKING_KEY });
  const c = contract.appointments;
  return {
    createRoom: useMutation({
      mutationFn: (body: BookingResourceInput) => api.call(c.createResource, { body }),
      onSuccess,
    }),
    updateRoom: useMutation({
      mutationFn: ({ id, body }: { id: number; body: BookingResourceInput }) =>
        api.call(c.updateResource, { params: { id }, body }),
      onSuccess,
    }),
    removeRoom: useMutation({
      mutationFn: (id: number) => api.call(c.deleteResource, { params: { id } }),
      onSuccess,
    }),
    saveSettings: useMutation({
      mutationFn: (body: BookingSettings) => api.call(c.saveSettings, { body }),
      onSuccess,
    }),
    book: useMutation({ mutationFn: (body: BookingCreate) => api.call(c.create, { body }), onSuccess }),
    move: useMutation({
      mutationFn: ({ id, body }: { id: number; body: BookingMove }) => api.call(c.move, { params: { id }, body }),
      onSuccess,
    }),
    cancel: useMutation({
      mutationFn: (id: number) => api.call(c.cancel, { params: { id }, body: {} }),
      onSuccess,
    }),
    setStatus: useMutation({
      mutationFn: ({ id, status }: { id: number; status: TimelineStatus }) =>
        api.call(c.setStatus, { params: { id }, body: { status } }),
      onSuccess,
    }),
    accept: useMutation({
      mutationFn: (id: number) => api.call(c.accept, { params: { id }, body: {} }),
      onSuccess,
    }),
    addWaitlist: useMutation({
      mutationFn: (body: { clientId: number; date: string; kind: BookingResourceKind }) =>
        api.call(c.addWaitlist, { body }),
      onSuccess,
    }),
    removeWaitlist: useMutation({
      mutationFn: (id: number) => api.call(c.removeWaitlist, { params: { id } }),
      onSuccess,
    }),
  };
}

export type TimelineStatus = 'booked' | 'checkedIn' | 'preparing' | 'immersed' | 'done' | 'noShow';
