import { beforeEach, expect, test } from 'bun:test';
import { type Access, contract, defaultSmsTemplates, type Method } from '@medlocker/core';
import { readTables, restoreTables, snapshotTables, type TableSnapshot } from '@medlocker/db/testing';
import { describeApi, type TestApi } from '../testing/api.ts';
import { testDataDir, validBusiness } from '../testing/businesses.ts';
import { testPatient } from '../testing/patients.ts';

/*
 * The access matrix, generated from the contract: every method of every area is called as nobody, as
 * a pharmacy user of business A on business B's rows, as that user on A's own rows, and as support.
 * A method without a declaration or without a sample input below fails the suite.
 */

/** The rows of one side of the estate (A: the pharmacy user's own, B: someone else's). */
type Side = {
  businessId: string;
  groupId: string;
  machineId: string;
  testMachineId: string;
  patientId: string;
  orderId: string;
  signUpId: string;
  clientId: string;
  /** A webhook delivery to the client's endpoint (a test event). */
  deliveryId: string;
  partnerId: string;
  /** A pharmacy user of this side (A's is the one who calls). */
  userId: string;
  email: string;
};

const signUpForm = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1990-12-10',
  email: 'ada@example.com',
  mobileNumber: '07700 900123',
  address: { line1: '1 High Street', line2: null, line3: null, postTown: 'LEEDS', postcode: 'ls1 4ap' },
};
const machineForm = { name: 'Front counter 2', numberOfSlots: 8 };
const paymentSettings = (businessId: string) => ({
  businessId,
  contactNumber: '0121 496 0000',
  legalInfo: 'High St Pharmacy Ltd',
  provider: null,
  judo: null,
});
const clientInput = (businessId: string) => ({
  businessId,
  name: 'Example PMR',
  contactEmail: 'support@pmr.example',
  suppressPatientMessages: true,
  webhookUrl: 'https://pmr.example/hooks/medlocker',
  rateLimit: 1200,
});

/** A valid input for every method, built from one side's rows. */
const samples: Record<string, Record<string, (s: Side) => Record<string, unknown>>> = {
  health: { ping: () => ({ echo: 'hi' }) },
  mailbox: { list: () => ({}), listTexts: () => ({}) },
  jobs: { listQueues: () => ({}), listJobs: () => ({}), retryJob: () => ({ id: 'no-such-job' }) },
  audit: { search: (s) => ({ patientId: s.patientId }), export: (s) => ({ orderId: s.orderId }) },
  alarms: {
    list: (s) => ({ businessId: s.businessId, machineId: s.machineId }),
    acknowledge: (s) => ({ machineId: s.machineId, id: 'no-such-alarm', reason: 'attending' }),
    resolve: (s) => ({ machineId: s.machineId, id: 'no-such-alarm' }),
  },
  auth: {
    changePassword: () => ({ currentPassword: 'wrong password 123', newPassword: 'A new password 123!' }),
    listSessions: (s) => ({ userId: s.userId }),
    endSession: () => ({ sessionId: 'no-such-session' }),
    endOtherSessions: () => ({}),
    verifySecondFactor: () => ({ code: '123456' }),
    beginPasskeySignIn: () => ({}),
    listSecondFactors: (s) => ({ userId: s.userId }),
    beginTotpSetup: () => ({}),
    finishTotpSetup: () => ({ name: 'Phone', secret: 'JBSWY3DPEHPK3PXP', code: '000000' }),
    beginPasskeySetup: () => ({}),
    finishPasskeySetup: () => ({
      name: 'Key',
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
        clientExtensionResults: {},
        type: 'public-key',
      },
    }),
    removeSecondFactor: () => ({ id: 'no-such-factor' }),
    regenerateRecoveryCodes: () => ({}),
    resetSecondFactors: (s) => ({ userId: s.userId }),
    getAccountStatus: (s) => ({ userId: s.userId }),
    enableUser: (s) => ({ userId: s.userId }),
    config: () => ({}),
    login: (s) => ({ username: s.email, password: 'wrong password 123' }),
    logout: () => ({}),
    session: () => ({}),
    register: () => ({ email: 'new.person@example.com', givenName: 'New', familyName: 'Person', frontEnd: 'pharmacy' }),
    beginResetPassword: (s) => ({ email: s.email, frontEnd: 'pharmacy' }),
    completeResetPassword: () => ({ password: 'A new password 123!', token: 'not-a-real-token' }),
    getIdentityProviderAuthUrl: (s) => ({ username: s.email, returnUrl: '/' }),
    addRoles: (s) => ({
      addIdpByDefault: false,
      email: 'another@example.com',
      frontEnd: 'pharmacy',
      resourceId: s.businessId,
      resourceType: 'business',
      roles: [{ name: 'Business', accessLevels: [] }],
    }),
    removeRole: (s) => ({ roleName: 'Business', roleResource: s.businessId, userId: s.userId }),
    editIdentityProvider: (s) => ({ email: s.email, identityProviderId: null, frontEnd: 'pharmacy' }),
    listMyInvitations: () => ({}),
    acceptInvitation: () => ({ id: 'no-such-invitation' }),
    declineInvitation: () => ({ id: 'no-such-invitation' }),
    listInvitations: (s) => ({ roleName: 'Business', roleResource: s.businessId }),
    cancelInvitation: () => ({ id: 'no-such-invitation' }),
    activateDeviceAuth: (s) => ({ machineId: s.machineId, userCode: 'ABCD-EFGH' }),
    beginCliSignIn: () => ({}),
    approveCliSignIn: () => ({ userCode: 'NOPE-NOPE' }),
    pollCliSignIn: () => ({ deviceCode: 'no-such-device-code' }),
    verifyPatient: (s) => ({ orderId: s.orderId, dateOfBirth: '1901-01-01' }),
    verifySms: (s) => ({ orderId: s.orderId }),
    patientSignInOptions: (s) => ({ orderId: s.orderId }),
    startNhsLogin: (s) => ({ orderId: s.orderId }),
    verifySmsCode: (s) => ({ orderId: s.orderId, code: '000000' }),
    patientSession: () => ({}),
    endPatientSession: () => ({}),
    listPatientMobile: () => ({}),
    addPatientMobile: () => ({ mobileNumber: '07700 900456' }),
    removePatientMobile: () => ({ mobileNumber: '07700 900001' }),
  },
  checkout: {
    createJudoPaymentSession: (s) => ({ orderId: s.orderId }),
    completeJudoOrderPayment: (s) => ({ orderId: s.orderId, receiptId: 'no-such-receipt' }),
    sendReceipt: (s) => ({ orderId: s.orderId }),
    declareExemption: (s) => ({
      orderId: s.orderId,
      exemptionCode: 'F',
      nameOfDeclarant: 'Ada Lovelace',
      onBehalfOfPatient: false,
      signature: `data:image/png;base64,${pngBase64}`,
    }),
  },
  users: {
    getUsersByRole: (s) => ({ roleName: 'Business', roleResource: s.businessId }),
    getUser: (s) => ({ id: s.userId }),
    updateUser: (s) => ({ id: s.userId, givenName: 'Renamed', familyName: 'User' }),
    addWhatsAppOptIn: (s) => ({ patientId: s.patientId }),
    verifyWhatsAppOptInMessage: (s) => ({ patientId: s.patientId, code: '123456' }),
    removeWhatsAppOptIn: (s) => ({ patientId: s.patientId }),
  },
  identityProviders: {
    list: () => ({}),
    get: () => ({ id: 'no-such-provider' }),
    create: () => ({
      name: 'Matrix SSO',
      type: 'OIDC',
      configuration: { issuerUrl: 'https://sso.example', clientId: 'matrix' },
    }),
    update: () => ({ id: 'no-such-provider', name: 'Matrix SSO', type: 'OIDC', configuration: {} }),
    delete: () => ({ id: 'no-such-provider' }),
    test: () => ({ id: 'no-such-provider' }),
  },
  businesses: {
    listBusinesses: () => ({}),
    listBusinessesInfo: () => ({}),
    listGroupedBusinesses: (s) => ({ groupId: s.groupId }),
    listUngroupedBusinesses: () => ({}),
    listAccessibleBusinesses: () => ({}),
    createBusiness: () => validBusiness('Brand New Pharmacy'),
    updateBusiness: (s) => ({ ...validBusiness('Renamed Pharmacy'), id: s.businessId }),
    getBusiness: (s) => ({ id: s.businessId }),
    getBusinessInfo: (s) => ({ id: s.businessId }),
    archiveBusiness: (s) => ({ id: s.businessId }),
    unarchiveBusiness: (s) => ({ id: s.businessId }),
    linkGroup: (s) => ({ groupId: s.groupId, businessIds: [s.businessId] }),
    unlinkGroup: (s) => ({ id: s.businessId }),
    uploadLogo: (s) => ({ entityId: s.businessId, dataUrl: `data:image/png;base64,${pngBase64}` }),
    updateLogo: (s) => ({ id: s.businessId, path: null, backgroundColor: '#ffffff' }),
    deleteLogo: () => ({ key: '/files/logos/nothing.png' }),
  },
  groups: {
    listGroups: () => ({}),
    listGroupsInfo: () => ({}),
    listAccessibleGroups: () => ({}),
    createGroup: () => ({ name: 'Brand New Group' }),
    updateGroup: (s) => ({ id: s.groupId, name: 'Renamed Group' }),
    getGroup: (s) => ({ id: s.groupId }),
    archiveGroup: (s) => ({ id: s.groupId }),
    unarchiveGroup: (s) => ({ id: s.groupId }),
    uploadLogo: (s) => ({ entityId: s.groupId, dataUrl: `data:image/png;base64,${pngBase64}` }),
    updateLogo: (s) => ({ id: s.groupId, path: null, backgroundColor: '#ffffff' }),
    deleteLogo: () => ({ key: '/files/logos/nothing.png' }),
  },
  machines: {
    createMachine: (s) => ({ ...machineForm, businessId: s.businessId }),
    getMachine: (s) => ({ id: s.machineId }),
    listMachines: (s) => ({ businessId: s.businessId }),
    updateMachine: (s) => ({ ...machineForm, id: s.machineId }),
    toggleArchive: (s) => ({ id: s.machineId }),
    toggleOutOfOrderStatus: (s) => ({ id: s.machineId }),
    listMachineStatus: (s) => ({ machineId: s.machineId }),
    listEvents: (s) => ({ machineId: s.machineId }),
    fleetSummary: () => ({}),
    isMachineAvailable: (s) => ({ id: s.machineId }),
    triggerStatus: (s) => ({ id: s.machineId, requested: 'StatusNotification' }),
    changeConfiguration: (s) => ({ id: s.machineId, key: 'HeartbeatInterval', value: '30' }),
    resetLocker: (s) => ({ id: s.machineId, type: 'Soft' }),
  },
  testMachines: {
    create: (s) => ({ ...machineForm, businessId: s.businessId }),
    get: (s) => ({ id: s.testMachineId }),
    list: (s) => ({ businessId: s.businessId }),
    update: (s) => ({ ...machineForm, id: s.testMachineId }),
    remove: (s) => ({ id: s.testMachineId }),
    getTestMachineBags: (s) => ({ id: s.testMachineId }),
  },
  bags: {
    listBags: (s) => ({ businessId: s.businessId, machineId: s.machineId }),
    listBagsToRemove: (s) => ({ businessId: s.businessId, machineId: s.machineId }),
    reprocessBags: (s) => ({ machineId: s.machineId }),
  },
  messages: { listOutbox: (s) => ({ businessId: s.businessId }) },
  notifications: {
    list: (s) => ({ businessId: s.businessId }),
    count: () => ({}),
    dismiss: () => ({ id: 'no-such-notification' }),
    dismissAll: (s) => ({ businessId: s.businessId }),
    sendUnreadNotificationsEmail: () => ({}),
  },
  url: {
    createUrl: (s) => ({ target: '/p/order', orderId: s.orderId }),
    getUrl: () => ({ code: 'no-such-code' }),
  },
  orders: {
    create: (s) => ({ businessId: s.businessId, patientId: s.patientId, machineId: s.machineId, barcode: 'NEW-1' }),
    get: (s) => ({ id: s.orderId }),
    cancel: (s) => ({ id: s.orderId, reason: 'Not needed' }),
    markCollected: (s) => ({ id: s.orderId }),
    markRemoved: (s) => ({ id: s.orderId }),
    setRevealPinReason: (s) => ({ id: s.orderId, reason: 'Patient lost the message' }),
    listEvents: (s) => ({ orderId: s.orderId }),
    listOrdersByPatient: (s) => ({ patientId: s.patientId }),
    listOrdersByBusiness: (s) => ({ businessId: s.businessId }),
    findOrders: () => ({ text: 'RX-1' }),
    getLabels: (s) => ({ ids: [s.orderId] }),
    listOrderIds: (s) => ({ businessId: s.businessId }),
    exportOrders: (s) => ({ businessId: s.businessId }),
    bulkUpdate: (s) => ({ ids: [s.orderId], action: 'markRemoved' }),
  },
  qrCodes: {
    createOrder: (s) => ({ businessId: s.businessId, qrCode: `MLQR1.e30.${'A'.repeat(43)}` }),
    getSigningKey: (s) => ({ businessId: s.businessId }),
    rotateSigningKey: (s) => ({ businessId: s.businessId }),
  },
  patientOrders: {
    list: () => ({}),
    get: (s) => ({ orderId: s.orderId }),
    setLanguage: (s) => ({ orderId: s.orderId, language: 'cy' }),
    resendOrderReadyMessage: (s) => ({ orderId: s.orderId }),
    sendOrderExpiryMessage: (s) => ({ orderId: s.orderId }),
  },
  patients: {
    create: (s) => ({ businessId: s.businessId, patient: testPatient(7) }),
    update: (s) => ({ id: s.patientId, patient: testPatient(8) }),
    get: (s) => ({ id: s.patientId }),
    delete: (s) => ({ id: s.patientId }),
    list: (s) => ({ businessId: s.businessId }),
    batchGet: (s) => ({ ids: [s.patientId] }),
    batchUpsertPatients: (s) => ({ businessId: s.businessId, patients: [testPatient(9)] }),
  },
  signUps: {
    create: (s) => ({ businessId: s.businessId, signUp: { ...signUpForm, email: 'grace@example.com' } }),
    update: (s) => ({ id: s.signUpId, signUp: { ...signUpForm, firstName: 'Augusta' } }),
    delete: (s) => ({ id: s.signUpId }),
    get: (s) => ({ id: s.signUpId }),
    list: (s) => ({ businessId: s.businessId }),
    count: (s) => ({ businessId: s.businessId }),
    convert: (s) => ({ id: s.signUpId, displayId: 'P-0001' }),
    getBusinessId: (s) => ({ id: s.signUpId }),
    verifyContactMethods: (s) => ({ id: s.signUpId, emailCode: '000000' }),
  },
  patientSignUps: {
    business: (s) => ({ businessId: s.businessId }),
    create: (s) => ({ businessId: s.businessId, signUp: { ...signUpForm, email: 'online@example.com' } }),
    get: () => ({}),
    verify: () => ({ emailCode: '000000' }),
    resendCodes: () => ({}),
  },
  businessSettings: {
    getBusinessSmsTemplates: (s) => ({ businessId: s.businessId }),
    updateBusinessSmsTemplates: (s) => ({ businessId: s.businessId, templates: defaultSmsTemplates }),
    getBusinessFeatureSettings: (s) => ({ businessId: s.businessId }),
    updateBusinessFeatureSettings: (s) => ({
      businessId: s.businessId,
      settings: { orderCollection: { defaultCollectionWindow: 14 } },
    }),
    getBusinessControlledSettings: (s) => ({ businessId: s.businessId }),
    updateBusinessControlledSettings: (s) => ({ businessId: s.businessId, settings: {} }),
  },
  paymentSettings: {
    getPaymentSettings: (s) => ({ businessId: s.businessId }),
    updatePaymentSettings: (s) => paymentSettings(s.businessId),
    deletePaymentSettings: (s) => ({ businessId: s.businessId }),
    getPaymentClientSettings: (s) => ({ businessId: s.businessId }),
  },
  integration: {
    getIntegrationClient: (s) => ({ businessId: s.businessId }),
    createOrUpdateIntegrationClient: (s) => clientInput(s.businessId),
    deleteIntegrationClient: (s) => ({ id: s.clientId }),
    generateClientSecret: (s) => ({ id: s.clientId }),
    generateWebhookSecret: (s) => ({ id: s.clientId }),
    listIntegrationPartners: () => ({}),
    createIntegrationPartner: () => ({
      name: 'Other PMR',
      contactEmail: 'x@other.example',
      suppressPatientMessages: false,
    }),
    updateIntegrationPartner: (s) => ({
      id: s.partnerId,
      name: 'Renamed PMR',
      contactEmail: 'x@pmr.example',
      suppressPatientMessages: false,
    }),
    deleteIntegrationPartner: (s) => ({ id: s.partnerId }),
  },
  webhooks: {
    getEndpoint: (s) => ({ businessId: s.businessId }),
    listDeliveries: (s) => ({ businessId: s.businessId }),
    getDelivery: (s) => ({ id: s.deliveryId }),
    replayDelivery: (s) => ({ id: s.deliveryId }),
    replayFailed: (s) => ({ businessId: s.businessId, since: 0 }),
    sendTestEvent: (s) => ({ businessId: s.businessId }),
    enableEndpoint: (s) => ({ businessId: s.businessId }),
  },
  reports: {
    listCollectionStats: (s) => ({ businessId: s.businessId, startDate: '2026-01-01', endDate: '2026-12-31' }),
    rebuildMonthlyStats: (s) => ({ businessId: s.businessId }),
    listBusinessStats: (s) => ({ businessId: s.businessId }),
    getUsageStats: (s) => ({ businessId: s.businessId }),
    sendMonthlyEmail: (s) => ({ businessId: s.businessId, year: 2026, month: 1 }),
  },
  evidence: {
    getEvidencePack: (s) => ({ machineId: s.machineId, from: 0, to: 60_000 }),
    downloadEvidencePack: (s) => ({ machineId: s.machineId, from: 0, to: 60_000 }),
    holdPins: (s) => ({ orderIds: [s.orderId], reason: 'matrix' }),
    releasePins: (s) => ({ orderIds: [s.orderId], reason: 'matrix' }),
  },
  dataProtection: {
    getRetentionPolicy: () => ({}),
    updateRetentionPolicy: () => ({ orderDays: 800 }),
    getBusinessRetention: (s) => ({ businessId: s.businessId }),
    updateBusinessRetention: (s) => ({ businessId: s.businessId, orderDays: 900 }),
    erasePatient: (s) => ({ patientId: s.patientId }),
    exportPatientData: (s) => ({ patientId: s.patientId }),
  },
  groupReports: {
    listMonthlyStats: (s) => ({ groupId: s.groupId, endMonth: 3, endYear: 2026, selectedBusinessIds: [s.businessId] }),
  },
  globalSettings: {
    getGlobalSettings: () => ({}),
    createOrUpdateGlobalSettings: () => ({ nhsPrescriptionCharge: 990 }),
    getAlarmMessageTemplates: () => ({}),
    updateAlarmMessageTemplates: () => ({ templates: {} }),
  },
};

/** 1×1 transparent PNG. */
const pngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const methods = Object.entries(contract).flatMap(([area, defs]) =>
  Object.entries(defs as Record<string, Method>).map(([method, def]) => ({ area, method, def })),
);

const declared = (access: Access | undefined): access is Access =>
  access !== undefined && Array.isArray(access.actors) && access.actors.length > 0;
const forPharmacy = (access: Access) => access.actors.includes('pharmacy');
/**
 * Scopes the service applies (own record, filtered list, shared catalogue): no row of B's to refuse.
 * The `roles` scope is the service's too, but names B's business or group: refused like a record scope.
 */
const serviceScoped = (access: Access) => typeof access.scope === 'string' && access.scope !== 'roles';

test('every method of the contract declares its access and has a sample input in the matrix', () => {
  const missing = methods.filter(({ area, method, def }) => !declared(def.access) || !samples[area]?.[method]);
  expect(missing.map(({ area, method }) => `${area}/${method}`)).toEqual([]);
  const unscoped = methods.filter(
    ({ def }) => forPharmacy(def.access) && !def.access.actors.includes('anonymous') && def.access.scope === undefined,
  );
  expect(unscoped.map(({ area, method }) => `${area}/${method}`)).toEqual([]);
});

/** Everything but sessions, login counters and the audit log (refusals are not changes), in one query. */
async function snapshot(t: TestApi): Promise<string> {
  const ignored = ['sessions', 'patient_sessions', 'login_failures', 'audit_log'];
  return (await readTables(t.db))
    .filter(({ table }) => !ignored.includes(table))
    .map(({ table, rows }) => `${table}:${rows}`)
    .join('\n');
}

describeApi(
  'access matrix',
  (t) => {
    /** Business A (in group GA) with its rows, and the same for B in GB; a pharmacy user admin of A and GA. */
    async function estate() {
      const support = await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' });
      const as = { cookie: support.cookie };
      const ok = async <T>(p: Promise<{ status: number; body: T }>): Promise<T> => {
        const res = await p;
        if (res.status !== 200) throw new Error(`fixture call failed: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body;
      };
      const partner = await ok(
        t.call(
          'integration',
          'createIntegrationPartner',
          { name: 'Example PMR', contactEmail: 'support@pmr.example', suppressPatientMessages: true },
          as,
        ),
      );
      const side = async (name: string): Promise<Side> => {
        const group = await ok(t.call('groups', 'createGroup', { name: `Group ${name}` }, as));
        const business = await ok(t.call('businesses', 'createBusiness', validBusiness(`Pharmacy ${name}`), as));
        const businessId = business.business.id;
        await ok(t.call('businesses', 'linkGroup', { groupId: group.group.id, businessIds: [businessId] }, as));
        const machine = await ok(t.call('machines', 'createMachine', { ...machineForm, businessId }, as));
        const testMachine = await ok(
          t.call('testMachines', 'create', { name: 'Bench', numberOfSlots: 4, businessId }, as),
        );
        const patient = await ok(t.call('patients', 'create', { businessId, patient: testPatient(1) }, as));
        const signUp = await ok(t.call('signUps', 'create', { businessId, signUp: signUpForm }, as));
        const order = await ok(
          t.call(
            'orders',
            'create',
            { businessId, patientId: patient.patient.id, machineId: machine.machine.id, barcode: 'RX-1' },
            as,
          ),
        );
        const client = await ok(t.call('integration', 'createOrUpdateIntegrationClient', clientInput(businessId), as));
        const test = await ok(t.call('webhooks', 'sendTestEvent', { businessId }, as));
        const email = `pharmacist.${name.toLowerCase()}@example.com`;
        const user = await t.createUser({
          email,
          roles: [
            { name: 'Business', resourceType: 'business', resourceId: businessId, accessLevels: ['Admin'] },
            { name: 'Group', resourceType: 'group', resourceId: group.group.id, accessLevels: ['Admin'] },
          ],
        });
        return {
          businessId,
          groupId: group.group.id,
          machineId: machine.machine.id,
          testMachineId: testMachine.testMachine.id,
          patientId: patient.patient.id,
          orderId: order.order.id,
          signUpId: signUp.signUp.id,
          clientId: client.client.id,
          deliveryId: test.delivery.id,
          partnerId: partner.partner.id,
          userId: user.userId,
          email,
        };
      };
      const a = await side('A');
      const b = await side('B');
      const { createSession } = await import('../sessions/sessions.ts');
      const { authPolicy } = await import('../sessions/policy.ts');
      const { token } = await createSession(t.db, a.userId, t.deps.now(), { ip: null, userAgent: 'test' });
      // The patient of A's order, signed in on the patient page.
      const { createPatientSession, PATIENT_COOKIE } = await import('../sessions/patient-sessions.ts');
      const patientSession = await createPatientSession(
        t.db,
        { businessId: a.businessId, patientId: a.patientId, orderId: a.orderId, method: 'dateOfBirth' },
        t.deps.now(),
        { ip: null, userAgent: 'test' },
      );
      return {
        a,
        b,
        support: as,
        pharmacy: { cookie: `${authPolicy.sessionCookie}=${token}` },
        patient: { cookie: `${PATIENT_COOKIE}=${patientSession.token}` },
      };
    }

    // The estate is built through the API once per database, then every test starts from exactly those
    // rows (same ids, same sessions), put back in one statement: building it costs ~25 calls.
    let built: Awaited<ReturnType<typeof estate>> | undefined;
    let saved: TableSnapshot | undefined;
    beforeEach(async () => {
      if (built && saved) {
        await restoreTables(t.db, saved);
      } else {
        built = await estate();
        saved = await snapshotTables(t.db);
      }
    }, 60_000);
    const current = () => {
      if (!built) throw new Error('the estate was not built');
      return built;
    };

    for (const { area, method, def } of methods) {
      const sample = samples[area]?.[method];
      if (!declared(def.access) || !sample) continue;
      const access = def.access;
      test(`${area}/${method}: nobody, a pharmacy user on another business, on its own, and support get what the contract declares`, async () => {
        const { a, b, support, pharmacy, patient } = current();
        const call = (input: Record<string, unknown>, as?: { cookie: string }) =>
          // biome-ignore lint/suspicious/noExplicitAny: the matrix walks every method by name
          t.call(area as any, method as any, input, as);

        const anonymous = await call(sample(a));
        if (access.actors.includes('anonymous')) expect(anonymous.status).not.toBe(401);
        else expect(anonymous.status).toBe(401);

        // A pharmacy user of A on B's rows: refused, and nothing anywhere changed.
        if (!serviceScoped(access) || !forPharmacy(access)) {
          const before = await snapshot(t);
          const onB = await call(sample(b), pharmacy);
          if (!access.actors.includes('anonymous')) {
            expect([403, 404]).toContain(onB.status);
            expect(await snapshot(t)).toBe(before);
          }
        } else {
          // Lists the service filters, own records, catalogues: nothing of B's in the answer.
          const answer = await call(sample(b), pharmacy);
          const text = JSON.stringify(answer.body);
          for (const id of [b.businessId, b.groupId, b.machineId, b.patientId, b.orderId, b.signUpId, b.clientId]) {
            expect(text).not.toContain(id);
          }
        }

        // A pharmacy user on A's own rows: let through when the method is declared for pharmacy.
        const own = await call(sample(a), pharmacy);
        const isPublic = access.actors.includes('anonymous');
        if (isPublic) {
          // Public methods answer as they do for anyone (a wrong password is a 401 of its own).
          expect(own.status).toBeLessThan(500);
        } else if (forPharmacy(access)) {
          expect([401, 403]).not.toContain(own.status);
          expect(own.status).toBeLessThan(500);
        } else {
          expect(own.status).toBe(403);
        }

        const bySupport = await call(sample(a), support);
        if (isPublic || access.actors.includes('support')) {
          if (!isPublic) expect([401, 403]).not.toContain(bySupport.status);
        } else {
          expect(bySupport.status).toBe(403);
        }
        expect(bySupport.status).toBeLessThan(500);
        // An order's sealed PIN and its lookup hash stay in the api (areas/orders StoredOrder): no answer carries them.
        for (const answer of [own, bySupport]) expect(JSON.stringify(answer.body)).not.toMatch(/sealedPin|pinLookup/);

        // The patient of A's order, with a patient session: B's rows are a 404 that changes nothing, A's
        // own pass; a method not for patients never reads the patient cookie (nobody is signed in: 401).
        if (access.actors.includes('patient')) {
          if (!serviceScoped(access)) {
            const before = await snapshot(t);
            const onB = await call(sample(b), patient);
            expect(onB.status).toBe(404);
            expect(await snapshot(t)).toBe(before);
          } else {
            const text = JSON.stringify((await call(sample(b), patient)).body);
            for (const id of [b.businessId, b.patientId, b.orderId]) expect(text).not.toContain(id);
          }
          const mine = await call(sample(a), patient);
          expect([401, 403, 404]).not.toContain(mine.status);
          expect(mine.status).toBeLessThan(500);
        } else if (!isPublic) {
          expect((await call(sample(a), patient)).status).toBe(401);
        }
      }, 60_000);
    }

    test('a pharmacy user reaches the businesses of a group it holds a role on, and a role removed takes effect at the next call', async () => {
      const { a, support } = current();
      const grouped = await t.createUser({
        email: 'group.user@example.com',
        roles: [{ name: 'Group', resourceType: 'group', resourceId: a.groupId }],
      });
      const { createSession } = await import('../sessions/sessions.ts');
      const { authPolicy } = await import('../sessions/policy.ts');
      const { token } = await createSession(t.db, grouped.userId, t.deps.now(), { ip: null, userAgent: 'test' });
      const as = { cookie: `${authPolicy.sessionCookie}=${token}` };
      expect((await t.call('machines', 'listMachines', { businessId: a.businessId }, as)).status).toBe(200);
      // Not an Admin of the group: editing the business is refused.
      const edit = await t.call('businesses', 'updateBusiness', { ...validBusiness('X'), id: a.businessId }, as);
      expect(edit.status).toBe(403);
      const removed = await t.call(
        'auth',
        'removeRole',
        { roleName: 'Group', roleResource: a.groupId, userId: grouped.userId },
        support,
      );
      expect(removed.status).toBe(200);
      expect((await t.call('machines', 'listMachines', { businessId: a.businessId }, as)).status).toBe(404);
    }, 60_000);
  },
  undefined,
  testDataDir(),
);
