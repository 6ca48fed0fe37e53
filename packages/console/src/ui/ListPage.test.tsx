import { describe, expect, it } from 'bun:test';
import { atom } from 'jotai';
import type { Page } from '../api/queries.ts';
import { ListPage } from './ListPage.tsx';
import { renderPage, setUpDom, user, waitFor } from './testing.tsx';

await setUpDom();

type Pharmacy = { id: string; name: string; town: string };

const pharmacies: Pharmacy[] = [
  { id: 'b1', name: 'Abbey Pharmacy', town: 'Bath' },
  { id: 'b2', name: 'Castle Chemist', town: 'Cardiff' },
];

/** A list page over `load`, as the businesses list declares one. */
function Pharmacies({ load }: { load: (search: string | undefined) => Promise<Page<Pharmacy>> }) {
  return (
    <ListPage<Pharmacy>
      title="Pharmacies"
      label="Pharmacies"
      search={{ atom: atom(''), placeholder: 'Search by name' }}
      query={{ key: ['test', 'pharmacies'], load: (search) => load(search) }}
      columns={[
        { key: 'name', header: 'Name', render: (p) => p.name },
        { key: 'town', header: 'Town', render: (p) => p.town },
      ]}
      emptyText={(search) => (search ? `No pharmacy matches ${search}` : 'No pharmacies yet')}
    />
  );
}

describe('ListPage', () => {
  it('shows the heading, the columns and the rows loaded', async () => {
    const screen = await renderPage(<Pharmacies load={async () => ({ items: pharmacies, nextToken: null })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Pharmacies' })).not.toBeNull();
    const table = await screen.findByRole('table', { name: 'Pharmacies' });
    expect(table.textContent).toContain('Name');
    expect(table.textContent).toContain('Town');
    await waitFor(() => expect(table.textContent).toContain('Castle Chemist'));
    expect(table.textContent).toContain('Cardiff');
  });

  it('searches for what the user puts in the box once typing pauses, and says when nothing matches', async () => {
    const asked: (string | undefined)[] = [];
    const screen = await renderPage(
      <Pharmacies
        load={async (search) => {
          asked.push(search);
          return { items: pharmacies.filter((p) => !search || p.name.includes(search)), nextToken: null };
        }}
      />,
    );
    await screen.findByText('Abbey Pharmacy');
    const keyboard = await user();
    await keyboard.click(screen.getByRole('searchbox', { name: 'Search' }));
    await keyboard.paste('Zeta');
    expect(await screen.findByText('No pharmacy matches Zeta', {}, { timeout: 3000 })).not.toBeNull();
    expect(screen.queryByText('Abbey Pharmacy')).toBeNull();
    // One request for the settled text, not one per key typed.
    expect(asked).toEqual([undefined, 'Zeta']);
  });

  it('reports a failed load with a way to try again', async () => {
    let fail = true;
    const screen = await renderPage(
      <Pharmacies
        load={async () => {
          if (fail) throw new Error('The server could not be reached');
          return { items: pharmacies, nextToken: null };
        }}
      />,
    );
    expect(await screen.findByText('The server could not be reached')).not.toBeNull();
    fail = false;
    await (await user()).click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Abbey Pharmacy')).not.toBeNull();
  });
});
