import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PASSWORD_MIN_LENGTH } from '../users/password-policy.js';
import { newPasswordFields, passwordErrors } from './password-fields.js';

describe('the password form parts the reset page and the account page share', () => {
  it('asks for the new password twice, with the policy minimum on the first and in its hint', () => {
    const fields = String(newPasswordFields());
    assert.match(fields, new RegExp(`id="new_password"[^>]*minlength="${PASSWORD_MIN_LENGTH}"`));
    assert.match(fields, /id="confirm_password"[^>]*autocomplete="new-password"/);
    assert.match(fields, /aria-describedby="new-password-hint"/);
    assert.match(fields, new RegExp(`At least ${PASSWORD_MIN_LENGTH} characters\\.\\s*</p>`));
  });

  it('points the field at the refusals and says more in the hint when asked', () => {
    const fields = String(newPasswordFields({ errorsId: 'reset-errors', hintMore: 'Other browsers are signed out.' }));
    assert.match(fields, /aria-describedby="new-password-hint reset-errors"/);
    assert.match(fields, /characters\. Other browsers are signed out\./);
  });

  it('shows the refusals, escaped, under the id given; nothing when there are none', () => {
    assert.equal(passwordErrors('password-errors', []), null);
    const shown = String(passwordErrors('password-errors', ['New password: too <short>.']));
    assert.match(
      shown,
      /<div class="notice" role="alert" id="password-errors"><p>New password: too &lt;short&gt;\.<\/p><\/div>/,
    );
  });
});
