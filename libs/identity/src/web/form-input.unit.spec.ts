import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, Errors } from '#kernel';
import { checkboxes, formErrors } from './form-input.js';

describe('settings form input', () => {
  it('reads checkboxes as a list whether none, one or several were ticked', () => {
    const boxes = checkboxes(3);
    assert.deepEqual(boxes.parse(undefined), []);
    assert.deepEqual(boxes.parse('read'), ['read']);
    assert.deepEqual(boxes.parse(['read', 'write']), ['read', 'write']);
    assert.equal(boxes.safeParse(['a', 'b', 'c', 'd']).success, false);
  });

  it("words a command's refusal for the form, naming fields by their labels; leaves 404 and 5xx to the error page", () => {
    const labels = { url: 'Payload URL', secret: 'Secret' };
    assert.deepEqual(
      formErrors(
        Errors.validation([
          { path: 'body.url', message: 'must be an http or https URL' },
          { path: 'body.secret', message: 'must be at least 16 bytes' },
        ]),
        labels,
      ),
      ['Payload URL: must be an http or https URL.', 'Secret: must be at least 16 bytes.'],
    );
    assert.deepEqual(formErrors(new AppError('forbidden', 'INSUFFICIENT_SCOPE', 'Needs admin.')), ['Needs admin.']);
    assert.equal(formErrors(Errors.notFound('No such webhook.', 'WEBHOOK_NOT_FOUND')), undefined);
    assert.equal(formErrors(new Error('boom')), undefined);
  });
});
