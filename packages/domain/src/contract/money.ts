import { z } from 'zod';
import {
  AddCreditRequest,
  AdminPurchaseRequest,
  BalanceResponse,
  Purchase,
  PurchaseItems,
} from '../schemas/purchases.js';
import {
  AutoRenewLog,
  AutoRenewRunResponse,
  AutoRenewSettings,
  RenewQuoteResponse,
  SubscriptionsResponse,
} from '../schemas/subscriptions.js';
import { BankDetailsPatch, CardPatch, PaymentMethodInput, PaymentMethodView } from '../schemas/payment-methods.js';
import { BuyLinkRequest, LicenseRequest } from '../schemas/licenses.js';
import {
  HashavshevetDetails,
  MasavFile,
  MasavReturnResult,
  MasavSettings,
  MoveinRequest,
  SumitSettings,
} from '../schemas/accounting.js';
import { OkResponse } from '../schemas/common.js';
import { isoDate } from '../parts.js';
import { IdParams, routes } from './route.js';

const viewClients = { permission: 'roleViewClientsList' } as const;
const clientMoney = { permission: 'roleManageClientMoney' } as const;
const viewSettings = { permission: 'roleViewGeneralSettings' } as const;
const editSettings = { permission: 'roleEditGeneralSettings' } as const;
const queryFlag = z.union([z.boolean(), z.stringbool()]);

/** A card charge of the clearing provider as the payments report lists it (amount in agorot). */
export const SaferPayment = z.object({
  id: z.number(),
  clientId: z.number().nullable(),
  createdAt: z.string(),
  amount: z.number(),
  status: z.string(),
  lastFour: z.string(),
  brand: z.string(),
  reconciledAt: z.string().nullable(),
  result: z.string().nullable(),
});
/** What a reconciliation of uncertain card charges did, counts of charges. */
export const ReconcileResult = z.object({
  checked: z.number(),
  refunded: z.number(),
  notCharged: z.number(),
  stillUncertain: z.number(),
  linked: z.number().optional(),
});

/** Purchases and balances (seed 000 §7 "Clients" AdminPurchase, getBalance, addCredit; "Reports" Purchase/GetItems). */
export const purchases = routes(['purchases'], {
  adminPurchase: {
    method: 'POST',
    path: '/api/Client/AdminPurchase',
    body: AdminPurchaseRequest,
    response: Purchase,
    access: clientMoney,
  },
  items: {
    method: 'GET',
    path: '/api/Purchase/GetItems/:id',
    params: IdParams,
    response: PurchaseItems,
    access: viewClients,
  },
  get: { method: 'GET', path: '/api/Purchase/:id', params: IdParams, response: Purchase, access: viewClients },
  ofClient: {
    method: 'GET',
    path: '/api/Purchase/GetByClientId/:id',
    personalData: { kind: 'money', of: 'client' },
    params: IdParams,
    response: z.array(Purchase),
    access: viewClients,
  },
  balance: {
    method: 'GET',
    path: '/api/getBalance/:id',
    params: IdParams,
    response: BalanceResponse,
    access: viewClients,
  },
  addCredit: {
    method: 'POST',
    path: '/api/addCredit/:id',
    params: IdParams,
    body: AddCreditRequest,
    response: Purchase,
    access: clientMoney,
  },
  saferPayments: {
    method: 'GET',
    path: '/api/Report/GetSaferPayments',
    response: z.array(SaferPayment),
    access: { permission: 'rolePaymentesReport' },
  },
  reconcileSaferPayments: {
    method: 'POST',
    path: '/api/Report/ReconcileSaferPayments',
    response: ReconcileResult,
    access: { permission: 'rolePaymentesReport' },
  },
});

const createPaymentMethod = {
  method: 'POST',
  body: PaymentMethodInput,
  response: PaymentMethodView,
  access: clientMoney,
} as const;

/** Credit cards and bank details (seed 000 §7); never a full card or bank number in an answer. */
export const paymentMethods = routes(['payment-methods'], {
  list: { method: 'GET', path: '/api/CreditCard', response: z.array(PaymentMethodView), access: viewClients },
  create: { ...createPaymentMethod, path: '/api/CreditCard' },
  /** The same as `create`, at the path with a trailing slash the original console calls. */
  createSlash: { ...createPaymentMethod, path: '/api/CreditCard/' },
  ofClient: {
    method: 'GET',
    path: '/api/CreditCard/GetByClientId/:id',
    personalData: { kind: 'money', of: 'client' },
    params: IdParams,
    response: PaymentMethodView.nullable(),
    access: viewClients,
  },
  get: {
    method: 'GET',
    path: '/api/CreditCard/:id',
    params: IdParams,
    response: PaymentMethodView,
    access: viewClients,
  },
  updateCard: {
    method: 'PATCH',
    path: '/api/CreditCard/:id',
    params: IdParams,
    body: CardPatch,
    response: PaymentMethodView,
    access: clientMoney,
  },
  remove: {
    method: 'DELETE',
    path: '/api/CreditCard/:id',
    params: IdParams,
    response: OkResponse,
    access: clientMoney,
  },
  updateBank: {
    method: 'PATCH',
    path: '/api/CreditCard/UpdateBankPaymentDetails/:id',
    params: IdParams,
    body: BankDetailsPatch,
    response: PaymentMethodView,
    access: clientMoney,
  },
});

/** Subscriptions and automatic renewal (seed 000 §7 "Clients"); dates are the club's local days. */
export const subscriptions = routes(['subscriptions'], {
  ofClient: {
    method: 'GET',
    path: '/api/GetSubscriptions/:id',
    params: IdParams,
    response: SubscriptionsResponse,
    access: viewClients,
  },
  renewQuote: {
    method: 'POST',
    path: '/api/GetRenewSubscriptionStartAndEndDatesAndPrice/:id',
    params: IdParams,
    response: RenewQuoteResponse,
    access: viewClients,
  },
  runAutoRenew: {
    method: 'POST',
    path: '/api/AutoRenew/DoAutoRenrenew',
    response: AutoRenewRunResponse,
    access: clientMoney,
  },
  logsOfClient: {
    method: 'GET',
    path: '/api/AutoRenew/GetLogsByClientId/:id',
    personalData: { kind: 'money', of: 'client' },
    params: IdParams,
    response: z.array(AutoRenewLog),
    access: viewClients,
  },
  logs: {
    method: 'GET',
    path: '/api/AutoRenew/GetLogs',
    response: z.array(AutoRenewLog),
    access: { permission: 'roleAutoOperationsReport' },
  },
  settings: { method: 'GET', path: '/api/AutoRenew/Settings', response: AutoRenewSettings, access: viewSettings },
  saveSettings: {
    method: 'PATCH',
    path: '/api/AutoRenew/Settings',
    body: AutoRenewSettings,
    response: AutoRenewSettings,
    access: editSettings,
  },
});

/** Query of POST /api/MasavFile: a test file is not recorded as sent; the value date defaults to the next business day. */
export const MasavCreateQuery = z.object({
  testMode: queryFlag.default(false),
  valueDate: isoDate.optional(),
});

/** MASAV files (seed 000 §7 "Masav files"). */
export const masav = routes(['masav'], {
  list: { method: 'GET', path: '/api/MasavFile', response: z.array(MasavFile), access: clientMoney },
  create: { method: 'POST', path: '/api/MasavFile', query: MasavCreateQuery, response: MasavFile, access: clientMoney },
  /** The file itself (application/octet-stream). */
  download: { method: 'GET', path: '/api/MasavFile/Download/:id', params: IdParams, access: clientMoney },
  settings: { method: 'GET', path: '/api/MasavFile/Settings', response: MasavSettings.nullable(), access: clientMoney },
  /**
   * The bank's return (rejections) file of a sent MASAV file (multipart, one file): each
   * rejected debit goes back to an open debt with the bank's reason, the others are collected.
   */
  readReturn: {
    method: 'POST',
    path: '/api/MasavFile/Return',
    consumes: ['multipart/form-data'],
    response: MasavReturnResult,
    access: clientMoney,
  },
  saveSettings: {
    method: 'PUT',
    path: '/api/MasavFile/Settings',
    body: MasavSettings,
    response: MasavSettings,
    access: editSettings,
  },
});

/** Body of PATCH /api/AddLicensesRequest/{id}: the request's new status (0–5). */
export const LicenseRequestStatusPatch = z.strictObject({ status: z.number().int().min(0).max(5) });
/** Query of GET /api/getLicenseRequest/: only one license type when given. */
export const LicenseRequestListQuery = z.object({ licenseType: z.coerce.number().int().min(1).max(9).optional() });

/** Licenses (seed 000 §7 "Licenses"); prices in agorot. */
export const licenses = routes(['licenses'], {
  price: {
    method: 'GET',
    path: '/api/License/Price',
    response: z.object({ price: z.number() }),
    access: viewSettings,
  },
  buyLink: {
    method: 'POST',
    path: '/api/getBuyLink',
    body: BuyLinkRequest,
    response: z.object({ url: z.string(), code: z.string() }),
    access: editSettings,
  },
  /** A bank-transfer request: a multipart form with its reference file (up to MAX_REFERENCE_FILE_BYTES). */
  request: {
    method: 'POST',
    path: '/api/AddLicensesRequest/HandleAddLicensesRequest',
    consumes: ['multipart/form-data'],
    response: LicenseRequest,
    access: editSettings,
  },
  pendingCount: {
    method: 'GET',
    path: '/api/AddLicensesRequest/GetAddLicensesRequestsCount',
    response: z.object({ count: z.number() }),
    access: viewSettings,
  },
  summary: {
    method: 'GET',
    path: '/api/AddLicensesRequest/GetAddLicensesRequestsSummary',
    response: z.array(z.object({ status: z.number(), count: z.number(), quantity: z.number() })),
    access: viewSettings,
  },
  setStatus: {
    method: 'PATCH',
    path: '/api/AddLicensesRequest/:id',
    params: IdParams,
    body: LicenseRequestStatusPatch,
    response: LicenseRequest,
    access: editSettings,
  },
  list: {
    method: 'GET',
    path: '/api/getLicenseRequest/',
    query: LicenseRequestListQuery,
    response: z.array(LicenseRequest),
    access: viewSettings,
  },
});

/** Answer of POST /api/Club/UpdateClubSumitSettings/{id}: the API key is never sent back, only whether one is set. */
export const SumitSettingsView = z.object({ companyId: z.string(), sendInvoices: z.boolean(), apiKeySet: z.boolean() });

/** Accounting export and the club's invoicing/charging settings (seed 000 §7). */
export const accounting = routes(['accounting'], {
  /** MOVEIN.DAT of the period for Hashavshevet (application/octet-stream). */
  moveinDat: {
    method: 'POST',
    path: '/api/Report/WriteMoveinDat',
    body: MoveinRequest,
    access: { permission: 'roleFinanicalReport' },
  },
  /** MOVEIN.PRM, the field layout of MOVEIN.DAT (application/octet-stream). */
  moveinPrm: { method: 'GET', path: '/api/Report/MoveinPrm', access: { permission: 'roleFinanicalReport' } },
  hashavshevet: {
    method: 'GET',
    path: '/api/Club/GetHasavshevetDetails',
    response: HashavshevetDetails.nullable(),
    access: viewSettings,
  },
  updateHashavshevet: {
    method: 'PATCH',
    path: '/api/Club/UpdateHasavshevetDetails/:id',
    params: IdParams,
    body: HashavshevetDetails,
    response: HashavshevetDetails,
    access: editSettings,
  },
  updateSumit: {
    method: 'POST',
    path: '/api/Club/UpdateClubSumitSettings/:id',
    params: IdParams,
    body: SumitSettings,
    response: SumitSettingsView,
    access: editSettings,
  },
  /** Runs the automatic renewal, then reconciles uncertain card charges. */
  chargeClub: {
    method: 'POST',
    path: '/api/Club/StartChargeClub',
    response: z.object({ renewal: AutoRenewRunResponse, saferPayments: ReconcileResult }),
    access: clientMoney,
  },
});
