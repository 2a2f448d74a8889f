// Every cookbook shape, live, on the Aside test double (test/doubles/aside on PATH): the half of
// test/helpers/cookbook-live.ts's suite that the tier runs beside the Chromium half.
import { cookbookLiveSuite } from './helpers/cookbook-live.js';

cookbookLiveSuite({ engines: ['aside'], committed: false });
