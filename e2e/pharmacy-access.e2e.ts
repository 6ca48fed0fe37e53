import {
  asAdmin,
  createBusiness,
  createGroup,
  createMachine,
  createUser,
  expect,
  logIn,
  logInAsAdmin,
  signInAsNew,
  test,
} from './harness/fixtures.ts';

test('a pharmacy user of one business sees only that business, opens its machines and patients, and is refused support pages', async ({
  page,
}) => {
  // Three sign-ins and a dozen page loads: more than the default minute on the shared, loaded machine.
  test.setTimeout(120_000);
  const own = await createBusiness();
  const other = await createBusiness();
  const machine = await createMachine(own.id);
  await createMachine(other.id, 'Not Yours Locker');
  await asAdmin('patients/create', {
    businessId: own.id,
    patient: { displayId: 'P-1001', name: { given: 'Alice', family: 'Able' }, mobileNumber: '07700 900001' },
  });
  const user = await createUser({ role: { name: 'Business', resource: own.id, accessLevels: [] } });

  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  // Invited users name themselves first (SPEC §1).
  await page.getByLabel('First name').fill('Priya', { timeout: 30_000 });
  await page.getByLabel('Surname').fill('Patel');
  await page.getByRole('button', { name: 'Save' }).click();
  // No fleet dashboard for them: they start at their business's dashboard, with the pharmacy menu
  // of that business (pharmacy-shell.e2e.ts covers it).
  await expect(page).toHaveURL(/\/$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 30_000 });
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', `/businesses/${own.id}/orders`);
  await expect(menu.getByRole('link', { name: 'Businesses' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Global Settings' })).toHaveCount(0);

  // The businesses list by its address: only theirs.
  await page.goto('/businesses');
  const list = page.getByRole('table', { name: 'Active businesses' });
  await expect(list.getByRole('link', { name: own.name })).toBeVisible();
  await expect(list.getByRole('link', { name: other.name })).toHaveCount(0);
  // Only support staff may add a business (the contract's access for createBusiness): no Add here.
  await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0);

  await list.getByRole('link', { name: own.name }).click();
  await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Machines' }).click();
  await expect(page.getByRole('link', { name: machine.name })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Not Yours Locker' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Patients' }).click();
  await expect(page.getByRole('table', { name: 'Patients' }).getByRole('link', { name: 'Alice Able' })).toBeVisible();
  // Importing patients is theirs to do: the action stays.
  await expect(page.getByRole('link', { name: 'Import', exact: true })).toBeVisible();
  // Their lists keep filters in the URL too: a reload shows the same.
  await page.locator('label.switch', { hasText: 'Only with issues' }).click();
  await expect(page).toHaveURL(/\/patients\?issues=true$/);
  await expect(page.getByText('No patients found.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Only with issues' })).toBeChecked();
  await expect(page.getByText('No patients found.')).toBeVisible();

  // The groups list is support's page for creating and editing groups: Access Restricted for them.
  await page.goto('/groups');
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByText('Caution: This is not the businesses page')).toHaveCount(0);
  await page.goBack();

  // Another business's page by its address: not found, and nothing of it shown.
  await page.goto(`/businesses/${other.id}/machines`);
  await expect(page.getByText('Not Yours Locker')).toHaveCount(0);

  // A support-only page: Access Restricted, inside the console frame.
  await page.goto('/globalSettings');
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
});

/** A business in a group, with a machine: what the actions below are offered on. */
async function businessInGroup() {
  const business = await createBusiness();
  const group = await createGroup();
  await asAdmin('businesses/linkGroup', { groupId: group.id, businessIds: [business.id] });
  const machine = await createMachine(business.id);
  return { business, group, machine };
}

test('a pharmacy Admin is not offered what the server would refuse them: archiving, pairing, editing a machine, the group', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { business, group, machine } = await businessInGroup();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, user);

  await page.goto(`/businesses/${business.id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Details' })).toBeVisible();
  await expect(page.getByText('1 High Street, Leeds, LS1 1AA')).toBeVisible();
  // No Archive (support's), and no "Group: restricted" link to a page that refuses them.
  await expect(page.getByRole('button', { name: 'Archive' })).toHaveCount(0);
  await expect(page.getByText('restricted')).toHaveCount(0);
  await expect(page.locator(`a[href="/groups/${group.id}"]`)).toHaveCount(0);
  await expect(page.getByRole('term').filter({ hasText: /^Group$/ })).toHaveCount(0);
  // Their Edit tab stays: they administer the business.
  await expect(page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Edit' })).toBeVisible();

  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await expect(page.getByRole('heading', { level: 2, name: machine.name })).toBeVisible();
  // Out of order is theirs to set; Pair, Edit, Archive and the payments switch are support's.
  await expect(page.getByRole('switch', { name: 'Out of order' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Evidence pack' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pair' })).toHaveCount(0);
  await expect(page.locator(`a[href$="/machines/${machine.id}/edit"]`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Archive' })).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Payments enabled' })).toHaveCount(0);

  // Their addresses answer Access Restricted rather than a form the server refuses.
  for (const path of [
    `/businesses/${business.id}/machines/${machine.id}/edit`,
    `/businesses/${business.id}/machines/add`,
    '/businesses/add',
    '/groups/add',
    '/groups',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  }
});

test('support staff see the actions a pharmacy user does not', async ({ page }) => {
  const { business, group, machine } = await businessInGroup();
  await logInAsAdmin(page, '/businesses');
  await expect(page.getByRole('link', { name: 'Add', exact: true })).toBeVisible();
  await page.goto('/groups');
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add', exact: true })).toBeVisible();
  await page.goto(`/businesses/${business.id}/machines`);
  await expect(page.getByRole('link', { name: 'Add', exact: true })).toBeVisible();

  await page.goto(`/businesses/${business.id}`);
  await expect(page.getByRole('button', { name: 'Archive' })).toBeVisible();
  await expect(page.getByRole('link', { name: group.name })).toHaveAttribute('href', `/groups/${group.id}`);

  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await expect(page.getByRole('button', { name: 'Pair' })).toBeVisible();
  await expect(page.locator(`a[href$="/machines/${machine.id}/edit"]`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Archive' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Payments enabled' })).toBeVisible();
});
