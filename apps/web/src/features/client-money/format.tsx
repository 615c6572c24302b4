import { useClientFormat } from '../clients/clientFormat';

/** Money and date display of the money tabs: the clients area's formatter (club currency, 2125 = unlimited). */
export const useMoneyFormat = useClientFormat;
