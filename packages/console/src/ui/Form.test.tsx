import { describe, expect, it } from 'bun:test';
import { useState } from 'react';
import { Button } from './Button.tsx';
import { Form } from './Form.tsx';
import { TextField } from './TextField.tsx';
import { renderPage, setUpDom, user } from './testing.tsx';

await setUpDom();

/** A form as pages write it: the server's messages come back per field name. */
function NameForm({ errors, error }: { errors?: Record<string, string>; error?: string }) {
  const [name, setName] = useState('');
  return (
    <Form validationErrors={errors} error={error} onSubmit={(event) => event.preventDefault()}>
      <TextField label="Business name" name="name" value={name} onChange={setName} description="As on the sign." />
      <TextField label="Email address" name="email" />
      <Button type="submit">Save</Button>
    </Form>
  );
}

describe('Form and TextField', () => {
  it("show the server's message beside the field it names, and not beside the others", async () => {
    const screen = await renderPage(<NameForm errors={{ name: 'A business with this name already exists' }} />);
    const name = screen.getByRole('textbox', { name: 'Business name' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby') ?? '').not.toBe('');
    const describedBy = (name.getAttribute('aria-describedby') ?? '').split(' ');
    const said = describedBy.map((id) => document.getElementById(id)?.textContent).join(' ');
    expect(said).toContain('A business with this name already exists');
    expect(said).toContain('As on the sign.');
    expect(screen.getByRole('textbox', { name: 'Email address' }).getAttribute('aria-invalid')).toBeNull();
  });

  it('takes a field’s message away as soon as the user types in it', async () => {
    const screen = await renderPage(<NameForm errors={{ name: 'A business with this name already exists' }} />);
    expect(screen.queryByText('A business with this name already exists')).not.toBeNull();
    await (await user()).type(screen.getByRole('textbox', { name: 'Business name' }), 'B');
    expect(screen.queryByText('A business with this name already exists')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Business name' }).getAttribute('aria-invalid')).toBeNull();
  });

  it('announces a message about the whole form above the fields', async () => {
    const screen = await renderPage(<NameForm error="Invalid username or password" />);
    expect(screen.getByRole('alert').textContent).toContain('Invalid username or password');
  });
});
