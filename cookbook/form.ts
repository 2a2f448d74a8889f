// form: fill a form by its labels and show the result, without submitting it.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, OPEN_AND_LOAD, PRINT_CONSOLE_ERRORS, CLOSE_AND_FINISH, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const form: Shape = {
  name: 'form',
  summary: 'Fill a form by field labels without submitting it; secret fields (passwords, one-time codes) are left for the user.',
  description:
    'Loads the page and fills each field named by its label: text fields get the text, checkboxes and radios are checked for `true` and unchecked for `false`, selects get the option. Password and one-time-code fields are never filled: credentials do not pass through the agent. Nothing is submitted: no Enter, no submit click. Prints a FIELD line per field, a snapshot of the form (secret values never appear), a screenshot and the URL, which stays the one loaded. With no `fields` it only prints the form snapshot, so you learn the labels.',
  evidence: ['ASIDE_DIR=', 'URL=', 'FIELD', 'SNAPSHOT_START', 'SNAPSHOT_END', 'SCREENSHOT=', 'CONSOLE_ERRORS=', SENTINEL],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: URL_PARAM,
      fields: {
        type: 'object',
        default: {},
        additionalProperties: { type: ['string', 'boolean'] },
        description: 'Label -> value: a string for text fields and selects, true/false for checkboxes and radios.',
      },
      formSelector: { type: 'string', minLength: 1, default: 'form', description: 'Selector of the form to snapshot and screenshot; with the default `form` on a page that has no `<form>` (many apps draw their fields without one), the whole page.' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: SETTLE_PARAM,
    },
  },
  example: { url: 'http://127.0.0.1:8080/form.html', fields: { Username: 'alice', 'Remember me': true, Plan: 'pro' } },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    OPEN_AND_LOAD,
    String.raw`for (const [label, value] of Object.entries(PARAMS.fields)) {
  const field = pg.getByLabel(label, { exact: true });
  const kind = await field.evaluate((el) => ({
    tag: el.tagName.toLowerCase(),
    type: (el.getAttribute("type") || "").toLowerCase(),
    autocomplete: (el.getAttribute("autocomplete") || "").toLowerCase(),
  }));
  // Credentials never pass through the agent: the user types these in their own browser.
  if (kind.type === "password" || /password|one-time-code/.test(kind.autocomplete)) {
    console.log("FIELD " + label + ": skipped (secret field: the user fills it in)");
  } else if (kind.type === "checkbox" || kind.type === "radio") {
    if (value === true || value === "true") await field.check(); else await field.uncheck();
    console.log("FIELD " + label + ": " + (await field.isChecked() ? "checked" : "unchecked"));
  } else if (kind.tag === "select") {
    await field.selectOption(String(value));
    // The option as asked for, not the page's value: a secret select's value is not printed.
    console.log("FIELD " + label + ": selected " + String(value));
  } else {
    await field.fill(String(value));
    console.log("FIELD " + label + ": filled");
  }
}

// Many apps draw their fields with no <form> around them (trial V21: Actual's sign-in page):
// the default then shows the whole page rather than fail after the fields were filled.
const formSelector = PARAMS.formSelector === "form" && (await pg.locator("form").count()) === 0 ? "body" : PARAMS.formSelector;
const snap = await snapshot(pg, { selector: formSelector });
console.log("SNAPSHOT_START");
console.log(snap.tree);
console.log("SNAPSHOT_END");
const file = path.join(pwd, "form.png");
await pg.locator(formSelector).first().screenshot({ path: file });
console.log("SCREENSHOT=" + file);
// Not submitted: the URL is still the one loaded.
console.log("URL=" + pg.url());`,
    PRINT_CONSOLE_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
